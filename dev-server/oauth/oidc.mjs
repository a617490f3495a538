// The OpenID provider (oidc-provider) at Echo's OAuth paths, configured as Echo behaves: a public
// client with PKCE S256, scope `llm:invoke offline_access` without openid (so no id_token), refresh
// tokens rotated on every use, access tokens in Echo's shape (HS256 JWTs with a configurable
// lifetime), and Echo's token answers. Where oidc-provider is stricter than Echo (a reused code or
// refresh token revokes the grant), the store shows a used one as unused unless a setting says not to.

import { createHash, createSecretKey, generateKeyPairSync, randomBytes } from 'node:crypto'

import Provider, { errors } from 'oidc-provider'

import { DEMO_APP, DEMO_APP_ID, ECHO_SCOPE, OAUTH_PATHS, TEST_USER } from '../fixtures.mjs'
import { createOidcStore } from './oidcStore.mjs'
import { escapeHtml, page } from '../http/http.mjs'
import { FAVICON_LINK } from '../http/favicon.mjs'

/** How long a refresh token lives, as Echo says in `refresh_token_expires_in` (30 days). */
export const REFRESH_TOKEN_TTL = 30 * 24 * 60 * 60

const SIGNING_KEY_ID = 'echo-dev-1'

/**
 * @typedef {object} OidcOptions
 * @property {string} issuer the API server's origin, e.g. http://127.0.0.1:8787
 * @property {string} resource the resource indicator access tokens are issued for: the router's origin
 * @property {number} accessTtl access-token lifetime in seconds
 * @property {boolean} [refreshGrace] Echo's 2-minute grace for a rotated refresh token (oidcStore.mjs)
 * @property {boolean} [codeReplay] an authorization code works again within its life, as at Echo (oidcStore.mjs)
 * @property {string[]} [appIds] the developer's own app ids, signed in to besides the demo app's
 * @property {SecretsSeen} [secretsSeen] where every token, code and code verifier the token endpoint sees is noted
 */

/**
 * What the token endpoint has seen: every access and refresh token it issued and every code and PKCE
 * code verifier presented to it. Not part of Echo: a test reads it to know, from outside the page,
 * what a script in the page must never find.
 * @typedef {{ accessTokens: Set<string>, refreshTokens: Set<string>, codes: Set<string>, verifiers: Set<string> }} SecretsSeen
 */

/**
 * Builds the provider and the key its access tokens are checked with: Echo signs them with a server
 * secret (HS256), so the dev server makes up its own at each start.
 * @param {OidcOptions} options
 */
export function createOidcProvider({
  issuer,
  resource,
  accessTtl,
  refreshGrace = false,
  codeReplay = false,
  appIds = [],
  secretsSeen,
}) {
  const knownAppIds = [DEMO_APP_ID, ...appIds.filter((id) => id !== DEMO_APP_ID)]
  // oidc-provider wants an asymmetric key for its JWKS (and id tokens, which Echo's scope never
  // gets); access tokens are signed with the secret alone.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const signingJwk = { ...privateKey.export({ format: 'jwk' }), kid: SIGNING_KEY_ID, alg: 'RS256', use: 'sig' }
  const secret = createSecretKey(randomBytes(32))

  const provider = new Provider(issuer, {
    adapter: createOidcStore(Date.now, { refreshGrace, codeReplay }),
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
    clients: knownAppIds.map((clientId) => ({
      client_id: clientId,
      client_name: clientId === DEMO_APP_ID ? 'echo-rtk demo' : 'your app',
      application_type: 'web',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // Any loopback URI is accepted (allowLoopbackRedirects below); these are just the registered examples.
      redirect_uris: ['http://localhost:5173/', 'http://127.0.0.1:5173/'],
      post_logout_redirect_uris: ['http://localhost:5173/', 'http://127.0.0.1:5173/'],
    })),
    scopes: ['openid', 'offline_access', 'llm:invoke'],
    findAccount: (_ctx, sub) => (sub === TEST_USER.id ? { accountId: sub, claims: () => ({ sub }) } : undefined),
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    rotateRefreshToken: true,
    expiresWithSession: () => false,
    issueRefreshToken: (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    clientBasedCORS: () => true,
    ttl: {
      AccessToken: accessTtl,
      AuthorizationCode: 60,
      Interaction: 60 * 60,
      Session: REFRESH_TOKEN_TTL,
      Grant: REFRESH_TOKEN_TTL,
      RefreshToken: REFRESH_TOKEN_TTL,
    },
    formats: { customizers: { jwt: inEchoShape } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError: (ctx, out) => renderError(ctx, out, knownAppIds),
    discovery: { userinfo_endpoint: `${issuer}${OAUTH_PATHS.userinfo}` },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      // oidc-provider issues JWT access tokens only for a resource server: every authorization and
      // refresh gets the one resource, and its scope is Echo's whole scope, so the token response
      // says `scope: 'llm:invoke offline_access'` as Echo's does. inEchoShape makes the JWT Echo's.
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget()
          const jwt = { sign: { alg: 'HS256', key: secret } }
          return { scope: ECHO_SCOPE, audience: resource, accessTokenTTL: accessTtl, accessTokenFormat: 'jwt', jwt }
        },
      },
    },
  })

  allowLoopbackRedirects(provider)
  // Echo's redirect back to the app carries the code and the state, and no `iss` (RFC 9207).
  provider.on('authorization.success', (_ctx, out) => {
    delete out.iss
  })
  provider.use(askForConsentToKeepOfflineAccess)
  provider.use(answerTokenRequestsAsEcho(provider, secretsSeen))
  provider.use(linkFavicon)

  return { provider, signingKey: { secret, audiences: knownAppIds } }
}

/**
 * An access token as Echo's: header `{ alg: 'HS256', typ: 'JWT' }`, Echo's claims, the app as its
 * audience and no issuer.
 * @type {import('oidc-provider').JwtCustomizer}
 */
function inEchoShape(_ctx, token, jwt) {
  const { sub, jti, iat, exp, scope } = jwt.payload
  jwt.header = { typ: 'JWT' }
  jwt.payload = {
    user_id: sub,
    app_id: token.clientId,
    scope,
    key_version: 1,
    session_id: sessionIdOf(token.grantId ?? token.jti),
    sub,
    aud: token.clientId,
    jti,
    iat,
    exp,
  }
}

/**
 * The grant's id as a UUID (Echo's `session_id` is one), the same for every token of the grant.
 * @param {string} grantId
 */
function sessionIdOf(grantId) {
  const bytes = createHash('sha256').update(grantId).digest().subarray(0, 16)
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
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
  return (
    url.protocol === 'http:' &&
    (url.hostname === 'localhost' || url.hostname === '127.0.0.1') &&
    url.username === '' &&
    url.password === '' &&
    !value.includes('#')
  )
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
 * Echo's token answers: the user and the app beside the tokens, `expires_in` counted at answer time
 * (one second less than the lifetime), `refresh_token_expires_in` beside the refresh token, and bad
 * codes or refresh tokens as `invalid_request` (Echo never answers `invalid_grant`), a wrong code
 * verifier as `PKCE verification failed`.
 * @param {Provider} provider
 * @param {SecretsSeen | undefined} seen
 * @returns {import('oidc-provider').Middleware}
 */
function answerTokenRequestsAsEcho(provider, seen) {
  return async function answerAsEcho(ctx, next) {
    await next()
    if (ctx.path !== OAUTH_PATHS.token || !isRecord(ctx.body)) return
    const body = ctx.body
    if (seen !== undefined) noteSecrets(seen, ctx.oidc?.params, body)
    if (typeof body.access_token === 'string') {
      if (typeof body.expires_in === 'number') body.expires_in = Math.max(body.expires_in - 1, 0)
      if (typeof body.refresh_token === 'string') body.refresh_token_expires_in = REFRESH_TOKEN_TTL
      body.user = { id: TEST_USER.id, email: TEST_USER.email, name: TEST_USER.name }
      body.echo_app = { id: DEMO_APP.id, name: DEMO_APP.name, description: DEMO_APP.description }
    }
    if (body.error !== 'invalid_grant') return
    body.error = 'invalid_request'
    if (await failsPkce(provider, ctx.oidc?.params)) body.error_description = 'PKCE verification failed'
  }
}

/**
 * Notes the secrets of one token request and its answer.
 * @param {SecretsSeen} seen
 * @param {Record<string, unknown> | undefined} params
 * @param {Record<string, unknown>} body
 */
function noteSecrets(seen, params, body) {
  const note = (/** @type {Set<string>} */ into, /** @type {unknown} */ value) => {
    if (typeof value === 'string' && value !== '') into.add(value)
  }
  note(seen.codes, params?.code)
  note(seen.verifiers, params?.code_verifier)
  note(seen.refreshTokens, params?.refresh_token)
  note(seen.accessTokens, body.access_token)
  note(seen.refreshTokens, body.refresh_token)
}

/**
 * Whether a code exchange was refused for its verifier: the code is still there (a replay refused
 * with codeReplay off has taken it away with its grant) and the verifier does not hash to its challenge.
 * @param {Provider} provider
 * @param {Record<string, unknown> | undefined} params the token request's parameters
 */
async function failsPkce(provider, params) {
  if (params?.grant_type !== 'authorization_code' || typeof params.code !== 'string') return false
  const code = await provider.AuthorizationCode.find(params.code, { ignoreExpiration: true })
  if (!code?.codeChallenge) return false
  const verifier = typeof params.code_verifier === 'string' ? params.code_verifier : ''
  return createHash('sha256').update(verifier).digest('base64url') !== code.codeChallenge
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
 * An app id this dev server does not know (a real one from Echo's dashboard, with `apiUrl` pointing
 * here) gets the way out: the ids it knows, the flag that adds the app's own, and a link back.
 * @param {import('oidc-provider').KoaContextWithOIDC} ctx
 * @param {{ error?: string, error_description?: string }} out
 * @param {string[]} knownAppIds
 */
function renderError(ctx, out, knownAppIds) {
  ctx.type = 'html'
  const said = `<p><code>${escapeHtml(out.error ?? 'error')}</code>: ${escapeHtml(out.error_description ?? '')}</p>`
  const appId = String(ctx.oidc?.params?.client_id ?? '')
  const back = backToApp(ctx.oidc?.params?.redirect_uri)
  const backLink = back === null ? '' : `<p><a href="${escapeHtml(back)}">Back to your app</a></p>`
  if (out.error !== 'invalid_client') {
    ctx.body = page('Sign-in error', `<h1>Echo dev server: sign-in error</h1>${said}${backLink}`)
    return
  }
  const known = knownAppIds.map(
    (id) => `<li><code>${escapeHtml(id)}</code>${id === DEMO_APP_ID ? ' (the demo app)' : ''}</li>`,
  )
  ctx.body = page(
    'Unknown app id',
    `<h1>Echo dev server: this app id is not known here</h1>
<p>Your app asked to sign in with the app id <code>${escapeHtml(appId)}</code>, which this local dev server does not know. It knows:</p>
<ul>${known.join('')}</ul>
<p>To sign in to your own app here, start the dev server with its id: <code>npm run dev-server -- --app-id ${escapeHtml(appId || '&lt;your app id&gt;')}</code> (or <code>ECHO_DEV_APP_ID</code>), or give your app the demo app's id while <code>apiUrl</code> points here.</p>
${said}${backLink}`,
  )
}

/**
 * Where "Back to your app" leads: the origin of the redirect URI the app sent, if it is a web address.
 * @param {unknown} redirectUri
 * @returns {string | null}
 */
function backToApp(redirectUri) {
  if (typeof redirectUri !== 'string' || !URL.canParse(redirectUri)) return null
  const url = new URL(redirectUri)
  return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}/` : null
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
