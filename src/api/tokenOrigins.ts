import { EchoError } from '../errors'

/**
 * The origins of `urls`, checked: each must be an absolute http(s) URL.
 * @internal
 */
export function originsOf(urls: readonly string[], field: string): string[] {
  return urls.map((url) => {
    const origin = httpOrigin(url)
    if (origin === null) throw new EchoError({ code: 'UNKNOWN_ERROR', message: `${field} must list absolute http(s) URLs (got ${JSON.stringify(url)})` })
    return origin
  })
}

/**
 * Throws, before anything is sent, when `input` would take the user's token anywhere but
 * `origins`: the classic mistake is a model client left on its own default host
 * (`https://api.openai.com`), which would receive an Echo token it has no use for.
 * @internal
 */
export function assertTokenOrigin(input: RequestInfo | URL, origins: readonly string[]): void {
  const url = urlOf(input)
  // Most calls are absolute URLs under an allowed origin: a prefix says so without parsing.
  if (origins.some((allowed) => url.startsWith(`${allowed}/`))) return
  const origin = httpOrigin(url, (globalThis as { location?: { href?: string } }).location?.href)
  if (origin !== null && origins.includes(origin)) return
  throw new EchoError({
    code: 'UNKNOWN_ERROR',
    message: `Refusing to send the user's Echo token to ${origin ?? JSON.stringify(url)}: it goes only to ${origins.join(' and ')}. Set your model client's baseURL to the Echo router`,
  })
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
export function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
}
