// Routes the requests of the API port: /api/v1, userinfo, token validation for app servers, the
// login and consent pages, checkout, a small dev control, and everything else to the OpenID provider (authorize, token, jwks, logout).

import { allowAnyOrigin, answerPreflight } from './http/cors.mjs'
import { createApiHandler } from './ledger/api.mjs'
import { createCheckoutHandler, formatUsd } from './ledger/checkout.mjs'
import { createInteractionHandler } from './oauth/interactions.mjs'
import { createUserinfoHandler } from './oauth/userinfo.mjs'
import { createValidateJwtTokenHandler } from './oauth/validateJwtToken.mjs'
import { DEMO_APP_ID, DEMO_FREE_TIER, ECHO_PATHS, OAUTH_PATHS, REFERRAL_CODE, TEST_USER } from './fixtures.mjs'
import { escapeHtml, page, readJson, sendHtml, sendJson } from './http/http.mjs'
import { answerFavicon } from './http/favicon.mjs'
import { isRecord } from './router/answerText.mjs'

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/**
 * Echo's answer to a path it has no route for, whatever the method: its web app's 404 page, with no
 * CORS headers, so a page's `fetch` of it rejects as it would offline.
 */
const NOT_FOUND_PAGE = page('404: This page could not be found.', '<h1>404</h1><p>This page could not be found.</p>')

/**
 * @param {{
 *   provider: import('oidc-provider').default,
 *   apiUrl: string,
 *   routerUrl: string,
 *   ledger: import('./ledger/ledger.mjs').Ledger,
 *   findAccessToken: (token: string | undefined) => Promise<import('./oauth/accessTokens.mjs').AccessTokenInfo | undefined>,
 *   autoLogin: boolean,
 *   modelsRoute?: boolean,
 *   creditDelayMs?: number,
 * }} options modelsRoute: serve `GET /api/v1/supported-models`, which Echo does not have
 * @returns {(req: IncomingMessage, res: ServerResponse) => Promise<void>}
 */
export function createApiServerHandler(options) {
  const {
    provider,
    apiUrl,
    routerUrl,
    ledger,
    findAccessToken,
    autoLogin,
    modelsRoute = false,
    creditDelayMs = 0,
  } = options
  const handleApi = createApiHandler({ apiUrl, ledger, findAccessToken })
  const handleUserinfo = createUserinfoHandler(findAccessToken)
  const handleValidateJwtToken = createValidateJwtTokenHandler(findAccessToken)
  const handleInteraction = createInteractionHandler({ provider, autoLogin })
  const handleCheckout = createCheckoutHandler({ ledger, creditDelayMs })
  const handleOidc = provider.callback()

  return async function handleApiServer(req, res) {
    const path = new URL(req.url ?? '/', apiUrl).pathname
    if (path === ECHO_PATHS.supportedModels && !modelsRoute) return sendHtml(res, 404, NOT_FOUND_PAGE)
    if (path.startsWith('/api/') || path.startsWith('/.well-known/')) {
      if (answerPreflight(req, res)) return
      allowAnyOrigin(req, res)
    }
    if (path.startsWith('/api/v1/')) return handleApi(req, res, path)
    if (path === OAUTH_PATHS.userinfo) return handleUserinfo(req, res)
    if (path === ECHO_PATHS.validateToken) return handleValidateJwtToken(req, res)
    if (path === '/dev/balance') return setBalance(req, res, ledger)
    if (answerFavicon(req, res, path)) return
    if (path === '/' && req.method === 'GET') {
      const freeTierLeft = ledger.freeTier(DEMO_APP_ID).userSpendInfo.amountLeft
      return sendHtml(res, 200, indexPage({ apiUrl, routerUrl, balance: ledger.balance().balance, freeTierLeft }))
    }
    if (await handleInteraction(req, res, path)) return
    if (handleCheckout(req, res, path)) return
    await handleOidc(req, res)
  }
}

/**
 * `POST /dev/balance {"balance": 0.05, "freeTier": 0}` sets what the test user has left, so a test can
 * reach the 402 of spent credits without spending them; not part of Echo. `balance`: US dollars left
 * of the paid balance (what was spent is kept); `freeTier`: US dollars left of the demo app's free
 * tier, from 0 to its spend limit (the router draws it before the paid balance, so a test that wants
 * a 402 sets both). Either may be left out to keep that one as it is. Answers the balance, with the
 * free tier as `freeTierBalance`.
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {import('./ledger/ledger.mjs').Ledger} ledger
 */
async function setBalance(req, res, ledger) {
  if (req.method !== 'POST')
    return sendJson(res, 405, { message: 'POST {"balance": <USD>, "freeTier": <USD>} to set what is left' })
  // JSON only: a page on another origin cannot send that without a preflight, which /dev does not answer.
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    return sendJson(res, 415, { message: 'Send Content-Type: application/json' })
  }
  const body = await readJson(req).catch(() => undefined)
  const { balance, freeTier } = isRecord(body) ? body : {}
  const errors = [
    ...(isUsdOrAbsent(balance, Infinity)
      ? []
      : [{ path: ['balance'], message: 'balance must be a number of US dollars >= 0' }]),
    ...(isUsdOrAbsent(freeTier, DEMO_FREE_TIER.spendLimit)
      ? []
      : [
          {
            path: ['freeTier'],
            message: `freeTier must be a number of US dollars from 0 to ${DEMO_FREE_TIER.spendLimit}`,
          },
        ]),
    ...(balance === undefined && freeTier === undefined
      ? [{ path: [], message: 'send balance, freeTier or both' }]
      : []),
  ]
  if (errors.length > 0) return sendJson(res, 400, { message: 'Invalid request body', errors })
  if (typeof balance === 'number') ledger.setBalance(balance)
  if (typeof freeTier === 'number') ledger.setFreeTierLeft(DEMO_APP_ID, freeTier)
  sendJson(res, 200, { ...ledger.balance(), freeTierBalance: ledger.freeTier(DEMO_APP_ID) })
}

/**
 * @param {unknown} value
 * @param {number} max
 */
function isUsdOrAbsent(value, max) {
  return value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max)
}

/** @param {{ apiUrl: string, routerUrl: string, balance: number, freeTierLeft: number }} urls */
function indexPage({ apiUrl, routerUrl, balance, freeTierLeft }) {
  return page(
    'Echo dev server',
    `<h1>Echo dev server</h1>
<p>A local, Echo-compatible server for trying echo-rtk.</p>
<ul>
  <li>API and OAuth: <code>${escapeHtml(apiUrl)}</code> (<code>/api/oauth/*</code>, <code>/api/v1/*</code>)</li>
  <li>Router: <code>${escapeHtml(routerUrl)}</code></li>
  <li>Demo app id: <code>${escapeHtml(DEMO_APP_ID)}</code>, free tier ${formatUsd(Math.max(freeTierLeft, 0))} left (drawn before the balance)</li>
  <li>Test user: <code>${escapeHtml(TEST_USER.email)}</code>, password <code>${escapeHtml(TEST_USER.password)}</code>, balance ${formatUsd(balance)}</li>
  <li>Referral code: <code>${escapeHtml(REFERRAL_CODE)}</code></li>
</ul>`,
  )
}
