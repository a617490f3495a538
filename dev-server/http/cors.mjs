// CORS as Echo answers it: any origin may call the API, the token and userinfo endpoints and the
// router from a browser. Authorization is named explicitly: a `*` in Access-Control-Allow-Headers
// does not cover it.

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/** Headers allowed on every cross-origin request, besides the ones a preflight asks for. */
export const ALLOWED_HEADERS = Object.freeze([
  'Authorization',
  'Content-Type',
  'X-Retry',
  'anthropic-version',
  'anthropic-beta',
  'anthropic-dangerous-direct-browser-access',
  'x-api-key',
  'x-goog-api-key',
])

/**
 * Sets the CORS headers for a request from any origin. Call it before answering.
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 */
export function allowAnyOrigin(req, res) {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*')
  res.setHeader('Vary', 'Origin')
}

/**
 * Answers a CORS preflight (OPTIONS with Access-Control-Request-Method); returns false for other requests.
 * The headers the preflight asks for are echoed back (the official SDKs send x-stainless-*), on top
 * of the fixed list naming Authorization.
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 */
export function answerPreflight(req, res) {
  if (req.method !== 'OPTIONS') return false
  allowAnyOrigin(req, res)
  const requested = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name))
  const known = new Set(ALLOWED_HEADERS.map((name) => name.toLowerCase()))
  const headers = [...ALLOWED_HEADERS, ...requested.filter((name) => !known.has(name.toLowerCase()))]
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': headers.join(', '),
    'Access-Control-Max-Age': '600',
    'Content-Length': '0',
  })
  res.end()
  return true
}
