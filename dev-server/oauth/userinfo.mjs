// /api/oauth/userinfo as Echo answers it. oidc-provider's own userinfo refuses tokens
// without the `openid` scope, which Echo never asks for, so this route answers instead.

import { bearerToken, sendJson } from '../http/http.mjs'
import { TEST_USER } from '../fixtures.mjs'

/** @typedef {import('./accessTokens.mjs').AccessTokenInfo} AccessTokenInfo */

/** The userinfo claims of the test user. */
export function testUserInfo() {
  return {
    sub: TEST_USER.id,
    email: TEST_USER.email,
    email_verified: true,
    name: TEST_USER.name,
    preferred_username: TEST_USER.preferredUsername,
    given_name: TEST_USER.givenName,
    family_name: TEST_USER.familyName,
    updated_at: Math.floor(Date.parse(TEST_USER.createdAt) / 1000),
  }
}

/**
 * @param {(token: string | undefined) => Promise<AccessTokenInfo | undefined>} findAccessToken
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>}
 */
export function createUserinfoHandler(findAccessToken) {
  return async function handleUserinfo(req, res) {
    if (req.method !== 'GET' && req.method !== 'POST') {
      sendJson(res, 405, { error: 'invalid_request', error_description: 'userinfo answers GET and POST' })
      return
    }
    const token = await findAccessToken(bearerToken(req))
    if (!token || token.accountId !== TEST_USER.id) {
      // Echo's answer, as its /api/v1 endpoints give it: no RFC 6750 error, no WWW-Authenticate.
      sendJson(res, 401, { message: 'Unauthorized' })
      return
    }
    sendJson(res, 200, testUserInfo())
  }
}
