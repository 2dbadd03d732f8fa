/** The reference implementation as a function of requests, so variants can wrap it without a socket. */

/** The base path the interface is served under (the spec's v1), as the server routes it and the handler names it. */
export const BASE_PATH = '/v1'

export interface ServiceRequest {
  method: string
  /** Path below the base path (e.g. `/pets/3`), without the query, its percent-encoded unreserved characters decoded. */
  path: string
  /** The request-target as it came, below the base path, query included and nothing decoded (for variants that read it raw). */
  target?: string
  query: URLSearchParams
  /** The base path as the request spelled it (`/v1`, or `/V1`): the handler decides what another spelling gets. */
  basePath?: string
  /** The whole request-target as it came, base path included and nothing decoded (what an edge proxy matches on). */
  rawTarget?: string
  /** The path is not under the base path in any spelling (`/v2/pets`, `/pets`): only a server that hands every path to its handler (`everyPath`) lets one through. */
  outside?: true
  /** The request line's version, as Node reads it (`1.1`, `1.0`). */
  httpVersion?: string
  /** Header names in lower case. */
  headers: Record<string, string | undefined>
  /** The field lines as they came, name then value (Node's rawHeaders): a field given twice is here twice, where `headers` may keep one. */
  rawHeaders?: readonly string[]
  body: string
  /** The body's octets as they came (`body` is them read as UTF-8, an invalid sequence as U+FFFD). */
  octets?: Buffer
}

export interface ServiceResponse {
  status: number
  headers: Record<string, string>
  body: string
  /** How the HTTP layer sends the body; look-alike variants change it. */
  delivery?: {
    chunked?: boolean
    closeConnection?: boolean
    delayMs?: number
    resetConnection?: boolean
    /** Reset the connection (no FIN, unread octets dropped) as soon as the answer is written, without `Connection: close`. */
    resetAfterAnswer?: boolean
    /** End the connection (a FIN) without writing any answer, the request read whole. */
    endWithoutAnswer?: boolean
    /** To HEAD: the body written after the head all the same (which HTTP never sends to HEAD), then the connection ended. */
    contentToHead?: boolean
    /** To HEAD: this Content-Length in place of the one GET's content has (a framework that counts the empty content it sends). */
    headContentLength?: number
    gzip?: boolean
    /** Content codings applied to the body, in the order they were applied (`Content-Encoding` lists them so); `gzip` is `['gzip']`. */
    codings?: ReadonlyArray<'gzip' | 'deflate' | 'br' | 'zstd'>
    /** The body in this many chunks at least, each written after the last left (chunked framing, every chunk its own write). */
    chunks?: number
    /** The body is octets, one a character, written as they are (a body that is not UTF-8); otherwise it is written as UTF-8. */
    octets?: boolean
    /** Trailer fields after a chunked body (RFC 9112 §7.1.2). */
    trailers?: Record<string, string>
    /** A 103 Early Hints (RFC 8297) written before the final answer. */
    earlyHints?: boolean
    /** The reason phrase of the status line, in place of the usual one (RFC 9112 §4: a client ignores it). */
    reasonPhrase?: string
    /** Close the connection this many ms after the answer, without `Connection: close`; a request that comes on it meanwhile is never answered. */
    dropConnectionAfterMs?: number
    /**
     * As an ASGI server that has given up on a connection after an error: nothing says so, a request that comes on it
     * is met with a reset before any byte of an answer, and the connection is closed 500 ms after the answer.
     */
    resetNextRequest?: boolean
  }
}

export type Handler = (request: ServiceRequest) => Promise<ServiceResponse>
