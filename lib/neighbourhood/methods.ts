/**
 * The methods of the IANA HTTP Method Registry (RFC 9110 §16.1), each with whether the registry marks it safe
 * (RFC 9110 §9.2.1), and unknown tokens: the values of the other-method operator. `PRI` (the HTTP/2 connection
 * preface, RFC 9113 §3.4) and `*` (reserved) are left out: neither is a method an HTTP/1.1 request can carry.
 */

const SAFE = ['GET', 'HEAD', 'OPTIONS', 'PROPFIND', 'QUERY', 'REPORT', 'SEARCH', 'TRACE']

const UNSAFE = [
  'ACL',
  'BASELINE-CONTROL',
  'BIND',
  'CHECKIN',
  'CHECKOUT',
  'CONNECT',
  'COPY',
  'DELETE',
  'LABEL',
  'LINK',
  'LOCK',
  'MERGE',
  'MKACTIVITY',
  'MKCALENDAR',
  'MKCOL',
  'MKREDIRECTREF',
  'MKWORKSPACE',
  'MOVE',
  'ORDERPATCH',
  'PATCH',
  'POST',
  'PROPPATCH',
  'PUT',
  'REBIND',
  'UNBIND',
  'UNCHECKOUT',
  'UNLINK',
  'UNLOCK',
  'UPDATE',
  'UPDATEREDIRECTREF',
  'VERSION-CONTROL',
]

/** The registry's safe methods (RFC 9110 §9.2.1): all a read-only run sends. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(SAFE)

/** Tokens no registry names: a method no service has, which a router may still send somewhere. */
export const UNKNOWN_METHODS: readonly string[] = ['FETCH', 'LIST', 'XGET', 'PETS', 'BREW']

/**
 * The classes of other methods for a request: HEAD and OPTIONS each alone (the methods every server answers, one
 * with GET's rules, one often before any rule), TRACE alone without the key (the one a framework answers itself by
 * echoing the request, before any rule: cpprest's listener, a servlet's doTrace; with the key it would echo the key),
 * the registry's other safe methods, unknown tokens, GET and POST in each other's place, and the registry's unsafe
 * methods. What may change the store goes only where a conformant service refuses it before it acts: an unsafe
 * method only without the key, and in a read-only run nothing but the registry's safe methods.
 */
export function otherMethodClasses(plainMethod: string, options: { keyed: boolean; writes: boolean }): Array<{ name: string; methods: string[] }> {
  const { keyed, writes } = options
  const other = (names: readonly string[]) => names.filter((name) => name !== plainMethod)
  const classes = [
    { name: 'HEAD', methods: other(['HEAD']) },
    { name: 'OPTIONS', methods: other(['OPTIONS']) },
    { name: 'TRACE', methods: keyed ? [] : other(['TRACE']) },
    { name: 'other safe methods', methods: other(SAFE.filter((name) => !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(name))) },
  ]
  // A token no registry names has no safety to rely on: only a run that may write sends one.
  if (writes) classes.push({ name: 'unknown tokens', methods: [...UNKNOWN_METHODS] })
  // Without the key, GET and POST in each other's place are the other plain requests without the key: nothing new.
  if (writes && keyed) classes.push({ name: 'the spec’s other method', methods: other(['GET', 'POST']) })
  if (writes && !keyed) classes.push({ name: 'unsafe methods', methods: other(UNSAFE.filter((name) => name !== 'POST')) })
  return classes.filter((methodClass) => methodClass.methods.length > 0)
}
