// Routes the requests of the API port: /api/v1, userinfo, the login and consent pages, checkout,
// a small dev control, and everything else to the OpenID provider (authorize, token, jwks, logout).

import { allowAnyOrigin, answerPreflight } from './cors.mjs'
import { createApiHandler } from './api.mjs'
import { createCheckoutHandler, formatUsd } from './checkout.mjs'
import { createInteractionHandler } from './interactions.mjs'
import { createUserinfoHandler } from './userinfo.mjs'
import { DEMO_APP_ID, OAUTH_PATHS, REFERRAL_CODE, TEST_USER } from './fixtures.mjs'
import { escapeHtml, page, readJson, sendHtml, sendJson } from './http.mjs'
import { isRecord } from './answerText.mjs'

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/**
 * @param {{
 *   provider: import('oidc-provider').default,
 *   apiUrl: string,
 *   routerUrl: string,
 *   ledger: import('./ledger.mjs').Ledger,
 *   findAccessToken: (token: string | undefined) => Promise<import('./accessTokens.mjs').AccessTokenInfo | undefined>,
 *   autoLogin: boolean,
 * }} options
 * @returns {(req: IncomingMessage, res: ServerResponse) => Promise<void>}
 */
export function createApiServerHandler({ provider, apiUrl, routerUrl, ledger, findAccessToken, autoLogin }) {
  const handleApi = createApiHandler({ apiUrl, ledger, findAccessToken })
  const handleUserinfo = createUserinfoHandler(findAccessToken)
  const handleInteraction = createInteractionHandler({ provider, autoLogin })
  const handleCheckout = createCheckoutHandler({ ledger })
  const handleOidc = provider.callback()

  return async function handleApiServer(req, res) {
    const path = new URL(req.url ?? '/', apiUrl).pathname
    if (path.startsWith('/api/') || path.startsWith('/.well-known/')) {
      if (answerPreflight(req, res)) return
      allowAnyOrigin(req, res)
    }
    if (path.startsWith('/api/v1/')) return handleApi(req, res, path)
    if (path === OAUTH_PATHS.userinfo) return handleUserinfo(req, res)
    if (path === '/dev/balance') return setBalance(req, res, ledger)
    if (path === '/' && req.method === 'GET') return sendHtml(res, 200, indexPage({ apiUrl, routerUrl, balance: ledger.balance().balance }))
    if (await handleInteraction(req, res, path)) return
    if (handleCheckout(req, res, path)) return
    await handleOidc(req, res)
  }
}

/**
 * `POST /dev/balance {"balance": 0.05}` sets what the test user has left, so a test can reach the
 * 402 of a spent balance without spending it; not part of Echo.
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {import('./ledger.mjs').Ledger} ledger
 */
async function setBalance(req, res, ledger) {
  if (req.method !== 'POST') return sendJson(res, 405, { message: 'POST {"balance": <USD>} to set the balance' })
  // JSON only: a page on another origin cannot send that without a preflight, which /dev does not answer.
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    return sendJson(res, 415, { message: 'Send Content-Type: application/json' })
  }
  const body = await readJson(req).catch(() => undefined)
  const balance = isRecord(body) ? body.balance : undefined
  if (typeof balance !== 'number' || !Number.isFinite(balance) || balance < 0) {
    return sendJson(res, 400, { message: 'Invalid request body', errors: [{ path: ['balance'], message: 'balance must be a number of US dollars >= 0' }] })
  }
  ledger.setBalance(balance)
  sendJson(res, 200, ledger.balance())
}

/** @param {{ apiUrl: string, routerUrl: string, balance: number }} urls */
function indexPage({ apiUrl, routerUrl, balance }) {
  return page(
    'Echo dev server',
    `<h1>Echo dev server</h1>
<p>A local, Echo-compatible server for trying echo-rtk.</p>
<ul>
  <li>API and OAuth: <code>${escapeHtml(apiUrl)}</code> (<code>/api/oauth/*</code>, <code>/api/v1/*</code>)</li>
  <li>Router: <code>${escapeHtml(routerUrl)}</code></li>
  <li>Demo app id: <code>${escapeHtml(DEMO_APP_ID)}</code></li>
  <li>Test user: <code>${escapeHtml(TEST_USER.email)}</code>, password <code>${escapeHtml(TEST_USER.password)}</code>, balance ${formatUsd(balance)}</li>
  <li>Referral code: <code>${escapeHtml(REFERRAL_CODE)}</code></li>
</ul>`,
  )
}
