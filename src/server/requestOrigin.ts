/** A request as the server-held session reads it: its address and its headers. */
export interface OriginRequest {
  url: string
  headers: Headers
}

/**
 * Whether `request` comes from a page other than the app's own: the browser says so
 * (`Sec-Fetch-Site` present and not `same-origin`), or its `Origin` is present and not `appOrigin`.
 * A request with neither is no browser's (a server, a script), and carries no page's cookie by
 * theft from a page: it passes.
 */
export function isCrossSite(request: OriginRequest, appOrigin: string): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null && site !== 'same-origin') return true
  const origin = request.headers.get('origin')
  return origin !== null && origin !== appOrigin
}

/**
 * The app's origin: the one it states (behind a TLS proxy), else the one the browser asked for: its
 * `Host` header, with the scheme a proxy in front says it took (`X-Forwarded-Proto`) or the request's
 * own. Not the request URL's host alone: Next.js gives route handlers `localhost` there whatever the
 * browser asked for, and a cookie set for one host is not sent to another.
 */
export function appOriginOf(request: OriginRequest, stated: string | undefined): string {
  if (stated !== undefined) return stated
  const url = new URL(request.url)
  const host = request.headers.get('host')
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim()
  const protocol = forwarded === 'https' || forwarded === 'http' ? `${forwarded}:` : url.protocol
  if (host === null || !/^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(host)) return url.origin
  return `${protocol}//${host}`
}

/** Whether cookies for `appOrigin` are `Secure`: always, but for plain http on a loopback host. */
export function isSecureOrigin(appOrigin: string): boolean {
  const { protocol, hostname } = new URL(appOrigin)
  return protocol !== 'http:' || !LOOPBACK_HOSTS.has(hostname)
}

/** Whether a cookie set for `appOrigin` can be kept by a browser: https, or plain http on a loopback host. */
export function canHoldCookies(appOrigin: string): boolean {
  const { protocol, hostname } = new URL(appOrigin)
  return protocol === 'https:' || LOOPBACK_HOSTS.has(hostname)
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * `returnTo` as a path of the app's own (with its query and hash), or `null` when it is not one:
 * never another host (`//host`, `/\host`, a URL), so the sign-in cannot be made to lead away.
 */
export function sameOriginPath(returnTo: string, appOrigin: string): string | null {
  if (!returnTo.startsWith('/') || returnTo.startsWith('//') || returnTo.startsWith('/\\')) return null
  try {
    const url = new URL(returnTo, appOrigin)
    return url.origin === appOrigin ? `${url.pathname}${url.search}${url.hash}` : null
  } catch {
    return null
  }
}
