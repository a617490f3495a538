import { EchoError } from '../errors'

/**
 * The origins of `urls`, checked: each must be an absolute http(s) URL.
 * @internal
 */
export function originsOf(urls: readonly string[], field: string): string[] {
  return urls.map((url) => {
    const origin = httpOrigin(url)
    if (origin === null)
      throw new EchoError({
        code: 'UNKNOWN_ERROR',
        reason: 'misconfigured',
        message: `${field} must list absolute http(s) URLs (got ${JSON.stringify(url)})`,
      })
    return origin
  })
}

/**
 * Throws, before anything is sent, when `input` would take the user's token anywhere but
 * `origins`: the classic mistake is a model client left on its own default host
 * (`https://api.openai.com`), which would receive an Echo token it has no use for.
 * @internal
 */
export function assertTokenOrigin(input: RequestInfo | URL, origins: readonly string[], routerUrl?: string): void {
  const url = urlOf(input)
  // Most calls are absolute URLs under an allowed origin: a prefix says so without parsing.
  if (origins.some((allowed) => url.startsWith(`${allowed}/`))) return
  const origin = originOf(input)
  if (origin !== null && origins.includes(origin)) return
  throw new EchoError({
    code: 'UNKNOWN_ERROR',
    reason: 'foreign-origin',
    message:
      `Refusing to send the user's Echo token to ${origin ?? JSON.stringify(url)}: it goes only to ` +
      `${origins.join(' and ')}. Set your model client's baseURL to the Echo router` +
      (routerUrl === undefined ? '' : ` (${routerUrl})`),
  })
}

/**
 * The http(s) origin `input` goes to, a relative URL read against the page (as `fetch` reads it);
 * `null` when it is none.
 * @internal
 */
export function originOf(input: RequestInfo | URL): string | null {
  return httpOrigin(urlOf(input), (globalThis as { location?: { href?: string } }).location?.href)
}

/**
 * Whether a 401 from one of the app's own servers says the user's Echo token was refused
 * (RFC 6750: `WWW-Authenticate: Bearer error="invalid_token"`, as `echo-rtk/server` answers), and
 * not the app's own sign-in: only then is the token refreshed for it.
 * @internal
 */
export function saysTokenRefused(response: Response): boolean {
  return /\bBearer\b.*\berror="?invalid_token\b/i.test(response.headers.get('www-authenticate') ?? '')
}

/**
 * Whether a 402 from one of the app's own servers says the user is out of Echo credits
 * (`X-Echo-Reason: insufficient-funds`, as `echo-rtk/server` answers), and not the app's own paywall.
 * @internal
 */
export function saysOutOfCredits(response: Response): boolean {
  return response.headers.get('x-echo-reason') === 'insufficient-funds'
}

function httpOrigin(url: string, base?: string): string | null {
  try {
    const parsed = new URL(url, base)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
  } catch {
    return null
  }
}

/** The URL a `fetch` input asks for, as text. @internal */
/** A request's headers as `fetch` will send them: `init`'s, else those of a `Request` given as `input`. @internal */
export function headersOf(input: RequestInfo | URL, init: RequestInit | undefined): Headers {
  return new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
}

export function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
}
