// POST /api/validate-jwt-token as Echo answers it: whose an access token is, for an
// app's own server (echo-rtk/server). The token comes in `X-Echo-Token` (or `Authorization`).

import { sendJson } from '../http/http.mjs'

/**
 * @param {(token: string | undefined) => Promise<import('./accessTokens.mjs').AccessTokenInfo | undefined>} findAccessToken
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>}
 */
export function createValidateJwtTokenHandler(findAccessToken) {
  return async function handleValidateJwtToken(req, res) {
    if (req.method !== 'POST' && req.method !== 'GET') return sendJson(res, 405, { valid: false, error: 'Use POST' })
    const header = req.headers['x-echo-token'] ?? req.headers.authorization
    const given = (Array.isArray(header) ? header[0] : header)?.replace(/^Bearer\s+/i, '').trim()
    if (!given)
      return sendJson(res, 400, { valid: false, error: 'Missing token header (use Authorization or X-Echo-Token)' })
    const found = await findAccessToken(given)
    if (!found) return sendJson(res, 401, { valid: false, error: 'Invalid token' })
    sendJson(res, 200, { valid: true, userId: found.accountId, appId: found.clientId, scope: found.scope })
  }
}
