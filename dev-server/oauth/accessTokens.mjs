// Checks bearer access tokens for the API, userinfo and the router.
// oidc-provider keeps no copy of a JWT access token, so `provider.AccessToken.find` cannot see one:
// the dev server verifies the JWT as Echo does (HS256 with the server's secret, the app as its
// audience, unexpired; Echo's tokens name no issuer), and, stricter than a bare JWT check, refuses
// tokens it did not issue or whose grant has been revoked (e.g. a rotated refresh token presented
// twice with refreshGrace off). Opaque tokens, should any be issued, go through `provider.AccessToken.find`.

import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * @typedef {object} AccessTokenInfo
 * @property {string} accountId the user's id (the token's `sub`)
 * @property {string} clientId the app's id
 * @property {string} scope
 * @property {number} expiresAt epoch seconds
 */

/**
 * @typedef {object} SigningKey
 * @property {import('node:crypto').KeyObject} secret the HS256 secret
 * @property {string[]} audiences the apps the tokens may be for (their ids)
 */

/** How many issued tokens' grants are remembered before the expired ones are swept. */
const SWEEP_AT = 1000

/**
 * @param {import('oidc-provider').default} provider
 * @param {SigningKey} signingKey
 * @param {() => number} [now] epoch milliseconds
 */
export function createAccessTokenVerifier(provider, signingKey, now = Date.now) {
  /**
   * The grant of every JWT access token issued and not yet expired: jti -> { grantId, exp }.
   * @type {Map<string, { grantId: string | undefined, exp: number }>}
   */
  const issued = new Map()

  provider.on('access_token.issued', (token) => {
    if (issued.size >= SWEEP_AT) {
      const nowSeconds = now() / 1000
      for (const [jti, record] of issued) if (record.exp <= nowSeconds) issued.delete(jti)
    }
    issued.set(token.jti, { grantId: token.grantId, exp: token.exp ?? 0 })
  })

  /**
   * The token's details when it is valid now, else undefined.
   * @param {string | undefined} token
   * @returns {Promise<AccessTokenInfo | undefined>}
   */
  async function findAccessToken(token) {
    if (!token) return undefined
    if (token.split('.').length !== 3) return findOpaque(token)
    const payload = verifyJwt(token, signingKey, now() / 1000)
    if (!payload) return undefined
    const record = issued.get(payload.jti)
    if (!record) return undefined
    if (record.grantId && !(await provider.Grant.find(record.grantId))) return undefined
    const { sub, app_id: appId, scope, exp } = payload
    return { accountId: String(sub), clientId: String(appId), scope: String(scope ?? ''), expiresAt: Number(exp) }
  }

  /** @param {string} token */
  async function findOpaque(token) {
    const found = await provider.AccessToken.find(token)
    if (!found || found.isExpired) return undefined
    return {
      accountId: String(found.accountId),
      clientId: String(found.clientId),
      scope: String(found.scope ?? ''),
      expiresAt: Number(found.exp),
    }
  }

  return findAccessToken
}

/**
 * The payload of an HS256 JWT signed with `key`'s secret, for its app, unexpired; else undefined.
 * @param {string} token
 * @param {SigningKey} key
 * @param {number} nowSeconds
 * @returns {Record<string, unknown> & { jti: string } | undefined}
 */
function verifyJwt(token, key, nowSeconds) {
  const [header = '', payload = '', signature = ''] = token.split('.')
  try {
    const head = /** @type {Record<string, unknown>} */ (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')))
    if (head.alg !== 'HS256') return undefined
    const expected = createHmac('sha256', key.secret).update(`${header}.${payload}`).digest()
    const given = Buffer.from(signature, 'base64url')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
    const claims = /** @type {Record<string, unknown>} */ (
      JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    )
    if (typeof claims.aud !== 'string' || !key.audiences.includes(claims.aud) || claims.app_id !== claims.aud)
      return undefined
    if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return undefined
    if (typeof claims.jti !== 'string') return undefined
    return /** @type {Record<string, unknown> & { jti: string }} */ (claims)
  } catch {
    return undefined
  }
}
