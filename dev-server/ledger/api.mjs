// The eight /api/v1 endpoints over the in-memory ledger, with Echo's wire shapes and
// error bodies: `{ message }`, 401 `{"message":"Unauthorized"}`, 400s with `errors`.

import { BodyTooLargeError, HttpError, bearerToken, readJson, sendJson } from '../http/http.mjs'
import { DEMO_APP, ECHO_PATHS, TEST_USER } from '../fixtures.mjs'
import { supportedModels } from '../router/models.mjs'
import { toUsd } from './ledger.mjs'

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/**
 * A 400 for one bad field, with Echo's `errors` list.
 * @param {string} field
 * @param {string} message
 */
const invalidField = (field, message) =>
  new HttpError(400, { message: 'Invalid request body', errors: [{ path: field ? [field] : [], message }] })

const notFound = () => new HttpError(404, { message: 'App not found' })

/**
 * @param {{ apiUrl: string, ledger: import('./ledger.mjs').Ledger, findAccessToken: (token: string | undefined) => Promise<import('../oauth/accessTokens.mjs').AccessTokenInfo | undefined> }} options
 * @returns {(req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>}
 */
export function createApiHandler({ apiUrl, ledger, findAccessToken }) {
  /** @type {Record<string, (req: IncomingMessage, body: Record<string, unknown>, params: string[]) => unknown>} */
  const routes = {
    [`GET ${ECHO_PATHS.apps}`]: (req) => {
      const query = new URL(req.url ?? '/', apiUrl).searchParams
      const page = nonNegativeInteger(query.get('page'), 0)
      const pageSize = Math.min(nonNegativeInteger(query.get('page_size'), 10) || 10, 100)
      const apps = [DEMO_APP]
      return {
        items: apps.slice(page * pageSize, (page + 1) * pageSize),
        page,
        page_size: pageSize,
        total_count: apps.length,
        has_next: (page + 1) * pageSize < apps.length,
      }
    },
    [`GET ${ECHO_PATHS.apps}/:id`]: (_req, _body, [id]) => {
      if (id !== DEMO_APP.id) throw notFound()
      return DEMO_APP
    },
    [`GET ${ECHO_PATHS.balance}`]: () => ledger.balance(),
    // Echo's SDKs ask for the free tier both ways: POST with { echoAppId } (older), GET by id (today's).
    [`POST ${ECHO_PATHS.freeBalance}`]: (_req, body) => ledger.freeTier(requireString(body, 'echoAppId')),
    [`GET ${ECHO_PATHS.balance}/:id/free`]: (_req, _body, [id]) => ledger.freeTier(id ?? ''),
    // Not Echo's: reached only with the modelsRoute setting (otherwise apiServer.mjs answers Echo's 404).
    [`GET ${ECHO_PATHS.supportedModels}`]: () => supportedModels(),
    [`POST ${ECHO_PATHS.paymentLink}`]: (req, body) => {
      const { amount } = body
      if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 1) {
        throw invalidField('amount', 'amount must be a number of US dollars, at least 1')
      }
      const description = body.description === undefined ? 'Echo Credits' : requireString(body, 'description')
      const successUrl =
        body.successUrl === undefined ? (req.headers.origin ?? apiUrl) : requireString(body, 'successUrl')
      if (!/^https?:$/.test(URL.canParse(successUrl) ? new URL(successUrl).protocol : '')) {
        throw invalidField('successUrl', 'successUrl must be an absolute http(s) URL')
      }
      const link = ledger.createPaymentLink({ amount, description, successUrl })
      const paymentLink = {
        id: link.id,
        url: `${apiUrl}/checkout/${link.id}`,
        amount: toUsd(link.amountMicros),
        currency: 'usd',
        status: link.status,
        created: link.created,
      }
      const payment = {
        id: `pay_dev_${link.id.slice('plink_dev_'.length)}`,
        amount: paymentLink.amount,
        currency: 'usd',
        status: 'pending',
        description,
        userId: TEST_USER.id,
        createdAt: new Date(link.created * 1000).toISOString(),
      }
      return { paymentLink, payment }
    },
    [`GET ${ECHO_PATHS.user}`]: () => ({
      id: TEST_USER.id,
      email: TEST_USER.email,
      name: TEST_USER.name,
      image: null,
      picture: null,
      createdAt: TEST_USER.createdAt,
      updatedAt: TEST_USER.createdAt,
    }),
    [`POST ${ECHO_PATHS.referral}`]: (_req, body) => {
      const echoAppId = requireString(body, 'echoAppId')
      const code = requireString(body, 'code')
      const outcome = ledger.redeemReferral(echoAppId, code)
      if (!outcome.success) throw new HttpError(400, outcome)
      return outcome
    },
  }

  return async function handleApi(req, res, path) {
    const found = findRoute(routes, req.method ?? 'GET', path)
    if (!found) {
      const pathKnown = Object.keys(routes).some((key) => matchPath(key.split(' ')[1] ?? '', path))
      sendJson(res, pathKnown ? 405 : 404, { message: pathKnown ? 'Method not allowed' : 'Not found' })
      return
    }
    const token = await findAccessToken(bearerToken(req))
    if (!token || token.accountId !== TEST_USER.id) {
      sendJson(res, 401, { message: 'Unauthorized' })
      return
    }
    try {
      /** @type {Record<string, unknown>} */
      let body = {}
      if (req.method === 'POST') {
        const parsed = await readJson(req)
        if (parsed !== undefined && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
          throw invalidField('', 'the body must be a JSON object')
        }
        body = /** @type {Record<string, unknown>} */ (parsed ?? {})
      }
      sendJson(res, 200, found.handler(req, body, found.params))
    } catch (error) {
      if (error instanceof HttpError) {
        sendJson(res, error.status, error.body)
      } else if (error instanceof SyntaxError) {
        sendJson(res, 400, { message: 'Invalid JSON body', errors: [{ path: [], message: error.message }] })
      } else if (error instanceof BodyTooLargeError) {
        sendJson(res, 413, { message: error.message })
      } else {
        throw error
      }
    }
  }
}

/**
 * @template T
 * @param {Record<string, T>} routes keyed `METHOD /path/:param`
 * @param {string} method
 * @param {string} path
 */
function findRoute(routes, method, path) {
  for (const [key, handler] of Object.entries(routes)) {
    const [routeMethod, pattern = ''] = key.split(' ')
    const params = routeMethod === method ? matchPath(pattern, path) : undefined
    if (params) return { handler, params }
  }
  return undefined
}

/**
 * The `:param` values when `path` fits `pattern`, else undefined.
 * @param {string} pattern
 * @param {string} path
 */
function matchPath(pattern, path) {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return undefined
  /** @type {string[]} */
  const params = []
  for (const [index, part] of want.entries()) {
    const value = got[index] ?? ''
    if (part.startsWith(':')) {
      if (value === '') return undefined
      params.push(decodeURIComponent(value))
    } else if (part !== value) {
      return undefined
    }
  }
  return params
}

/**
 * @param {Record<string, unknown>} body
 * @param {string} field
 */
function requireString(body, field) {
  const value = body[field]
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidField(field, `${field} must be a non-empty string`)
  }
  return value
}

/**
 * @param {string | null} text
 * @param {number} fallback
 */
function nonNegativeInteger(text, fallback) {
  const value = Number(text)
  return text !== null && Number.isInteger(value) && value >= 0 ? value : fallback
}
