import { http, HttpResponse, type HttpHandler } from 'msw'

import type { EchoEndpoints } from './endpoints'

// CORS as Echo answers it (its control plane and its router): any origin may call it from a page. A DOM that
// implements CORS (happy-dom) asks first with an OPTIONS preflight for every cross-origin fetch, which must be
// answered. Authorization is named explicitly: a `*` in Access-Control-Allow-Headers does not cover it.

/** Headers allowed on every cross-origin request, besides the ones a preflight asks for. @internal */
export const CORS_ALLOWED_HEADERS = Object.freeze([
  'Authorization',
  'Content-Type',
  'X-Retry',
  'anthropic-version',
  'anthropic-beta',
  'anthropic-dangerous-direct-browser-access',
  'x-api-key',
  'x-goog-api-key',
])

/** The methods a preflight is told are allowed. @internal */
export const CORS_ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS'

/**
 * Answers the preflight of every endpoint in `urls`. Not recorded in `echo.requests`: the browser sends a
 * preflight, not the app.
 * @internal
 */
export function preflightHandlers(urls: EchoEndpoints): HttpHandler[] {
  const every = new Set((Object.keys(urls) as (keyof EchoEndpoints)[]).map((name) => urls[name]))
  return [...every].map((url) => http.options(url, ({ request }) => preflightAnswer(request)))
}

/** Marks `response` as readable by the calling page (`request`'s origin), as Echo does on every answer. @internal */
export function allowingOrigin(request: Request, response: Response): Response {
  const origin = request.headers.get('origin')
  response.headers.set('Access-Control-Allow-Origin', origin ?? '*')
  if (origin !== null) response.headers.append('Vary', 'Origin')
  return response
}

function preflightAnswer(request: Request): Response {
  // The headers the preflight asks for are allowed too: the official SDKs send their own (x-stainless-*).
  const requested = (request.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name))
  const named = new Set(CORS_ALLOWED_HEADERS.map((name) => name.toLowerCase()))
  const extra = requested.filter((name) => !named.has(name.toLowerCase()) && named.add(name.toLowerCase()))
  const headers = [...CORS_ALLOWED_HEADERS, ...extra]
  return allowingOrigin(
    request,
    new HttpResponse(null, {
      status: 204,
      headers: {
        'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS,
        'Access-Control-Allow-Headers': headers.join(', '),
      },
    }),
  )
}
