/**
 * A certificate authority, a server certificate for 127.0.0.1 and a client certificate (for mutual TLS),
 * made at test time with the openssl command. The client's key is also written encrypted, with its passphrase.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestCertificates {
  /** PEM file of the CA that signed the server certificate (for --ca-file). */
  caFile: string
  key: string
  cert: string
  /** PEM files of a client certificate the same CA signed, and its key (for --client-cert / --client-key). */
  clientCertFile: string
  clientKeyFile: string
  /** The same key, encrypted with `clientKeyPassphrase`. */
  encryptedClientKeyFile: string
  clientKeyPassphrase: string
}

let made: TestCertificates | undefined

/** Made once per process: the files of one set serve every test that asks. */
export function makeCertificates(): TestCertificates {
  made ??= createCertificates()
  return made
}

function createCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-tls-'))
  const file = (name: string) => join(dir, name)
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=petstore self-test CA')
  openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1')
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1\n')
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'san.ext')
  openssl('req', ...ec, '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=petstore self-test client')
  openssl('x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '1')
  const clientKeyPassphrase = 'a-passphrase-for-the-self-test'
  openssl('pkcs8', '-topk8', '-in', 'client.key', '-out', 'client-encrypted.key', '-passout', `pass:${clientKeyPassphrase}`)
  return {
    caFile: file('ca.pem'),
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.pem'), 'utf8'),
    clientCertFile: file('client.pem'),
    clientKeyFile: file('client.key'),
    encryptedClientKeyFile: file('client-encrypted.key'),
    clientKeyPassphrase,
  }
}
