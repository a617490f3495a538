// The OpenID provider (oidc-provider) at Echo's OAuth paths, configured as Echo behaves: a public
// client with PKCE S256, scope `llm:invoke offline_access` without openid (so no id_token), refresh
// tokens rotated on every use, JWT access tokens with a configurable lifetime.
// DESIGN §7 lists the three ways oidc-provider differs from Echo and how they are bridged here.

import { generateKeyPairSync, randomBytes } from 'node:crypto'

import Provider, { errors } from 'oidc-provider'

import { DEMO_APP_ID, ECHO_SCOPE, OAUTH_PATHS, TEST_USER } from '../fixtures.mjs'
import { createOidcStore } from './oidcStore.mjs'
import { escapeHtml, page } from '../http/http.mjs'
import { FAVICON_LINK } from '../http/favicon.mjs'

/** How long a refresh token lives, as Echo says in `refresh_token_expires_in` (30 days). */
export const REFRESH_TOKEN_TTL = 30 * 24 * 60 * 60

const SIGNING_KEY_ID = 'echo-dev-1'

/**
 * @typedef {object} OidcOptions
 * @property {string} issuer the API server's origin, e.g. http://127.0.0.1:8787
 * @property {string} resource the audience of access tokens: the router's origin
 * @property {number} accessTtl access-token lifetime in seconds
 * @property {boolean} [refreshGrace] Echo's 2-minute grace for a rotated refresh token (oidcStore.mjs)
 */

/**
 * Builds the provider and the signing key its access tokens are checked with.
 * @param {OidcOptions} options
 */
export function createOidcProvider({ issuer, resource, accessTtl, refreshGrace = false }) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const signingJwk = { ...privateKey.export({ format: 'jwk' }), kid: SIGNING_KEY_ID, alg: 'RS256', use: 'sig' }

  const provider = new Provider(issuer, {
    adapter: createOidcStore(Date.now, { refreshGrace }),
    routes: {
      authorization: OAUTH_PATHS.authorization,
      token: OAUTH_PATHS.token,
      jwks: OAUTH_PATHS.jwks,
      end_session: OAUTH_PATHS.endSession,
      revocation: OAUTH_PATHS.revocation,
      // oidc-provider's own userinfo refuses tokens without `openid`; the dev server answers
      // /api/oauth/userinfo itself (userinfo.mjs), so the built-in one is moved aside and off.
      userinfo: '/api/oauth/oidc-userinfo',
    },
    clients: [
      {
        client_id: DEMO_APP_ID,
        client_name: 'echo-rtk demo',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // Any loopback URI is accepted (allowLoopbackRedirects below); these are just the registered examples.
        redirect_uris: ['http://localhost:5173/', 'http://127.0.0.1:5173/'],
        post_logout_redirect_uris: ['http://localhost:5173/', 'http://127.0.0.1:5173/'],
      },
    ],
    scopes: ['openid', 'offline_access', 'llm:invoke'],
    findAccount: (_ctx, sub) => (sub === TEST_USER.id ? { accountId: sub, claims: () => ({ sub }) } : undefined),
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    rotateRefreshToken: true,
    expiresWithSession: () => false,
    issueRefreshToken: (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    clientBasedCORS: () => true,
    ttl: {
      AccessToken: accessTtl,
      AuthorizationCode: 60,
      Interaction: 60 * 60,
      Session: REFRESH_TOKEN_TTL,
      Grant: REFRESH_TOKEN_TTL,
      RefreshToken: REFRESH_TOKEN_TTL,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError,
    discovery: { userinfo_endpoint: `${issuer}${OAUTH_PATHS.userinfo}` },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      // Access tokens are JWTs for the router (Echo's are JWTs too): every authorization and
      // refresh gets the one resource, and its scope is Echo's whole scope, so the token
      // response says `scope: 'llm:invoke offline_access'` as Echo's does.
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget()
          return { scope: ECHO_SCOPE, audience: resource, accessTokenTTL: accessTtl, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }
        },
      },
    },
  })

  allowLoopbackRedirects(provider)
  provider.use(askForConsentToKeepOfflineAccess)
  provider.use(answerTokenRequestsAsEcho)
  provider.use(linkFavicon)

  return { provider, signingKey: { publicKey, kid: SIGNING_KEY_ID, issuer, audience: resource } }
}

/**
 * Echo accepts any `http://localhost:*` or `http://127.0.0.1:*` redirect (and post-logout) URI for
 * an app in development; oidc-provider matches registered URIs exactly (native clients: any port,
 * same path). The provider's Client class is its own (one per Provider), so widening its two checks
 * touches no other provider.
 * @param {Provider} provider
 */
function allowLoopbackRedirects(provider) {
  const { prototype } = provider.Client
  const redirectUriAllowed = prototype.redirectUriAllowed
  const postLogoutRedirectUriAllowed = prototype.postLogoutRedirectUriAllowed
  /** @param {string} value */
  prototype.redirectUriAllowed = function (value) {
    return redirectUriAllowed.call(this, value) || isLoopbackHttpUri(value)
  }
  /** @param {string} value */
  prototype.postLogoutRedirectUriAllowed = function (value) {
    return postLogoutRedirectUriAllowed.call(this, value) || isLoopbackHttpUri(value)
  }
}

/**
 * `http://localhost[:port]/...` or `http://127.0.0.1[:port]/...`, with no fragment and no credentials.
 * @param {unknown} value
 */
export function isLoopbackHttpUri(value) {
  if (typeof value !== 'string' || !URL.canParse(value)) return false
  const url = new URL(value)
  return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1') && url.username === '' && url.password === '' && !value.includes('#')
}

/**
 * oidc-provider drops `offline_access` (so issues no refresh token) unless consent is prompted.
 * Echo grants it without the client asking for `prompt=consent`, so the dev server adds it to
 * authorization requests that ask for offline_access; the consent step then completes by itself
 * with auto-login, or on the consent page's button.
 * @type {import('oidc-provider').Middleware}
 */
async function askForConsentToKeepOfflineAccess(ctx, next) {
  if (ctx.path === OAUTH_PATHS.authorization && ctx.method === 'GET') {
    const query = new URLSearchParams(ctx.querystring)
    const scopes = (query.get('scope') ?? '').split(' ')
    const prompts = (query.get('prompt') ?? '').split(' ').filter(Boolean)
    if (scopes.includes('offline_access') && !prompts.includes('none') && !prompts.includes('consent')) {
      query.set('prompt', [...prompts, 'consent'].join(' '))
      ctx.querystring = query.toString()
    }
  }
  await next()
}

/**
 * Echo's token answers: `refresh_token_expires_in` beside the refresh token, and bad codes or
 * refresh tokens as `invalid_request` (Echo never answers `invalid_grant`; DESIGN §8).
 * @type {import('oidc-provider').Middleware}
 */
async function answerTokenRequestsAsEcho(ctx, next) {
  await next()
  if (ctx.path !== OAUTH_PATHS.token || !isRecord(ctx.body)) return
  const body = ctx.body
  if (typeof body.refresh_token === 'string') body.refresh_token_expires_in = REFRESH_TOKEN_TTL
  if (body.error === 'invalid_grant') body.error = 'invalid_request'
}

/**
 * Pages oidc-provider writes itself (the form_post page, used for logout without a session) get the
 * dev server's icon link too; the pages written here carry it already.
 * @type {import('oidc-provider').Middleware}
 */
async function linkFavicon(ctx, next) {
  await next()
  if (ctx.response.is('html') && typeof ctx.body === 'string' && !ctx.body.includes('rel="icon"')) {
    ctx.body = ctx.body.replace(/<head>/i, `<head>\n  ${FAVICON_LINK}`)
  }
}

/**
 * The logout confirmation submits itself, so sign-out needs no click; the button is there for a
 * browser without JavaScript.
 * @param {import('oidc-provider').KoaContextWithOIDC} ctx
 * @param {string} form oidc-provider's form, with its xsrf field
 */
function logoutSource(ctx, form) {
  ctx.body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Signing out</title>${FAVICON_LINK}</head>
<body>
${form.replace('</form>', '<input type="hidden" name="logout" value="yes"><button type="submit">Sign out</button></form>')}
<script>document.getElementById('op.logoutForm').submit()</script>
</body></html>`
}

/**
 * An OAuth error that cannot go back to the app (a bad redirect_uri, an unknown client) as a page.
 * @param {import('oidc-provider').KoaContextWithOIDC} ctx
 * @param {{ error?: string, error_description?: string }} out
 */
function renderError(ctx, out) {
  ctx.type = 'html'
  ctx.body = page('Sign-in error', `<h1>Echo dev server: sign-in error</h1><p><code>${escapeHtml(out.error ?? 'error')}</code>: ${escapeHtml(out.error_description ?? '')}</p>`)
}

/** @param {import('oidc-provider').KoaContextWithOIDC} ctx */
function postLogoutSuccessSource(ctx) {
  ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Signed out</title>${FAVICON_LINK}</head><body><h1>Signed out</h1><p>You are signed out of the Echo dev server.</p></body></html>`
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
}
