/** The reference implementation as a function of requests, so variants can wrap it without a socket. */

export interface ServiceRequest {
  method: string
  /** Path below the base path (e.g. `/pets/3`), without the query, its percent-encoded unreserved characters decoded. */
  path: string
  /** The request-target as it came, below the base path, query included and nothing decoded (for variants that read it raw). */
  target?: string
  query: URLSearchParams
  /** The base path as the request spelled it (`/v1`, or `/V1`): the handler decides what another spelling gets. */
  basePath?: string
  /** Header names in lower case. */
  headers: Record<string, string | undefined>
  body: string
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
    gzip?: boolean
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
