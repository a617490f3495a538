/** The cookies a request carries, by name (the first of a name wins, as browsers send the most specific first). */
export function requestCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=')
    if (at < 0) continue
    const name = pair.slice(0, at).trim()
    if (name === '' || cookies.has(name)) continue
    const value = pair.slice(at + 1).trim()
    cookies.set(name, unquoted(value))
  }
  return cookies
}

function unquoted(value: string): string {
  const bare = value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
  try {
    return decodeURIComponent(bare)
  } catch {
    return bare
  }
}

/** How echo-rtk's cookies are set: never readable by a page's script, sent on the app's own pages and on top-level navigations to them. */
export interface CookieAttributes {
  /** `Secure`: sent over https only (every origin but plain http on a loopback host). */
  secure: boolean
  /** Seconds; 0 removes the cookie. */
  maxAge: number
}

/** One `Set-Cookie` header value: `HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` unless told otherwise. */
export function setCookie(name: string, value: string, { secure, maxAge }: CookieAttributes): string {
  const attributes = [`Max-Age=${Math.max(0, Math.floor(maxAge))}`, 'Path=/', 'HttpOnly', 'SameSite=Lax']
  if (secure) attributes.push('Secure')
  return [`${name}=${value}`, ...attributes].join('; ')
}

/** The `Set-Cookie` value that removes `name`. */
export function removeCookie(name: string, secure: boolean): string {
  return setCookie(name, '', { secure, maxAge: 0 })
}

/** The longest value one cookie holds here: browsers keep at least 4,096 bytes of name, value and attributes. */
export const COOKIE_CHUNK_LENGTH = 3_800

/**
 * The value of the logical cookie `name`: the cookie itself, else its chunks `name.0`, `name.1`, ...
 * joined (one that is too long for one cookie is split); `null` when there is none.
 */
export function readChunked(cookies: Map<string, string>, name: string): string | null {
  const whole = cookies.get(name)
  if (whole !== undefined) return whole
  const chunks: string[] = []
  for (let index = 0; cookies.has(`${name}.${index}`); index++) chunks.push(cookies.get(`${name}.${index}`)!)
  return chunks.length === 0 ? null : chunks.join('')
}

/**
 * The `Set-Cookie` values that make `value` the logical cookie `name` (`null`: remove it): one cookie,
 * or chunks when it is too long for one; whatever else of it the request carried is removed.
 */
export function writeChunked(
  cookies: Map<string, string>,
  name: string,
  value: string | null,
  attributes: CookieAttributes,
): string[] {
  const parts = value === null ? [] : splitInto(value, COOKIE_CHUNK_LENGTH)
  const names = parts.length === 1 ? [name] : parts.map((_, index) => `${name}.${index}`)
  const headers = parts.map((part, index) => setCookie(names[index]!, part, attributes))
  for (const carried of cookies.keys())
    if ((carried === name || carried.startsWith(`${name}.`)) && !names.includes(carried))
      headers.push(removeCookie(carried, attributes.secure))
  return headers
}

function splitInto(text: string, length: number): string[] {
  const parts: string[] = []
  for (let at = 0; at < text.length; at += length) parts.push(text.slice(at, at + length))
  return parts.length === 0 ? [''] : parts
}
