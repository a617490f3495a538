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

/** The app's origin: the one it states (behind a TLS proxy), else the request's own. */
export function appOriginOf(request: OriginRequest, stated: string | undefined): string {
  return stated ?? new URL(request.url).origin
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
