/**
 * Why a TLS server closed the connection, when undici cannot say. A server that requires a client certificate
 * (mutual TLS 1.3) completes the handshake, then sends an alert and closes; undici reports only "other side
 * closed", which would read as a target that resets every connection. A plain TLS socket with the same
 * options reads the alert itself, so a missing or refused client certificate is told as the set-up
 * mistake it is.
 */
import { type ConnectionOptions, connect } from 'node:tls'

/** The TLS alert the server at `url` answers a request with (e.g. ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED), or undefined when it sends none within `timeoutMs`. */
export function tlsAlertOf(url: URL, options: ConnectionOptions, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ ...options, host: url.hostname, port: Number(url.port || 443), servername: /^[\d.:]+$/.test(url.hostname) ? '' : url.hostname })
    const done = (alert: string | undefined) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(alert)
    }
    const timer = setTimeout(() => done(undefined), timeoutMs)
    socket.once('secureConnect', () => socket.write(`HEAD ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`))
    socket.once('error', (error: NodeJS.ErrnoException) => done(/^ERR_SSL_.*ALERT/.test(error.code ?? '') ? error.code : undefined))
    socket.once('data', () => done(undefined))
    socket.once('close', () => done(undefined))
  })
}
