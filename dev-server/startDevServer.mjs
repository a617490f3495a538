// Starts the dev server programmatically: the API/OAuth server and the router, on loopback only.
// Tests and scripts pass port 0 for free ports and call close() when done.

import { createServer } from 'node:http'

import { createAccessTokenVerifier } from './oauth/accessTokens.mjs'
import { createApiServerHandler } from './apiServer.mjs'
import { DEMO_APP_ID, TEST_USER } from './fixtures.mjs'
import { Ledger } from './ledger/ledger.mjs'
import { createOidcProvider } from './oauth/oidc.mjs'
import { createRouterHandler } from './router/router.mjs'
import { resolveSettings } from './settings.mjs'

/** @typedef {import('./settings.mjs').DevServerSettings} DevServerSettings re-exported for the callers of startDevServer */
/** @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>} RequestHandler */

/** The only interface the dev server listens on. */
export const HOST = '127.0.0.1'

/**
 * @typedef {object} RunningDevServer
 * @property {string} apiUrl the API and OAuth origin, e.g. http://127.0.0.1:8787
 * @property {string} routerUrl the router origin, e.g. http://127.0.0.1:8788
 * @property {string} appId the demo app's id: its Echo app id and its OAuth client id
 * @property {{ id: string, email: string, password: string, name: string, balance: number }} testUser balance: the starting balance in USD
 * @property {DevServerSettings} settings the settings in force
 * @property {import('./oauth/oidc.mjs').SecretsSeen} secretsSeen every token, code and code verifier its token
 *   endpoint has issued or been shown (not part of Echo: for tests that look for them where they must not be)
 * @property {() => Promise<void>} close stops both servers and ends open connections and streams
 */

/**
 * Starts the dev server; port 0 picks free ports.
 * @param {Partial<DevServerSettings>} [options] defaults: DEFAULT_SETTINGS
 * @returns {Promise<RunningDevServer>}
 * @example
 * const server = await startDevServer({ port: 0, routerPort: 0, autoLogin: true })
 * // ... server.apiUrl, server.routerUrl, server.appId
 * await server.close()
 */
export async function startDevServer(options = {}) {
  const settings = resolveSettings(options)
  const apiServer = createServer()
  const routerServer = createServer()
  try {
    await listen(apiServer, settings.port)
    await listen(routerServer, settings.routerPort)
  } catch (error) {
    await Promise.all([stop(apiServer), stop(routerServer)])
    throw error
  }
  const apiUrl = `http://${HOST}:${portOf(apiServer)}`
  const routerUrl = `http://${HOST}:${portOf(routerServer)}`

  const ledger = new Ledger({ balance: settings.balance })
  const secretsSeen = { accessTokens: new Set(), refreshTokens: new Set(), codes: new Set(), verifiers: new Set() }
  /** @type {RequestHandler} */
  let handleApi
  /** @type {RequestHandler} */
  let handleRouter
  try {
    const { accessTtl, refreshGrace, codeReplay, autoLogin, modelsRoute, streamDelayMs, appIds } = settings
    const oidcOptions = {
      issuer: apiUrl,
      resource: routerUrl,
      accessTtl,
      refreshGrace,
      codeReplay,
      appIds,
      secretsSeen,
    }
    const { provider, signingKey } = createOidcProvider(oidcOptions)
    const findAccessToken = createAccessTokenVerifier(provider, signingKey)
    handleApi = createApiServerHandler({
      provider,
      apiUrl,
      routerUrl,
      ledger,
      findAccessToken,
      autoLogin,
      modelsRoute,
      creditDelayMs: settings.creditDelayMs,
    })
    handleRouter = createRouterHandler({ ledger, findAccessToken, streamDelayMs, routerUrl })
  } catch (error) {
    await Promise.all([stop(apiServer), stop(routerServer)])
    throw error
  }

  apiServer.on('request', (req, res) => void answerSafely(handleApi, req, res))
  routerServer.on('request', (req, res) => void answerSafely(handleRouter, req, res))

  /** @type {Promise<void> | undefined} */
  let closing
  return {
    apiUrl,
    routerUrl,
    appId: DEMO_APP_ID,
    testUser: {
      id: TEST_USER.id,
      email: TEST_USER.email,
      password: TEST_USER.password,
      name: TEST_USER.name,
      balance: settings.balance,
    },
    settings,
    secretsSeen,
    close() {
      closing ??= Promise.all([stop(apiServer), stop(routerServer)]).then(() => undefined)
      return closing
    },
  }
}

/**
 * Runs a handler and turns a thrown error into a 500 instead of a crash.
 * @param {RequestHandler} handler
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function answerSafely(handler, req, res) {
  try {
    await handler(req, res)
  } catch (error) {
    console.error(`[echo dev server] ${req.method} ${req.url}:`, error)
    if (!res.headersSent) {
      res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify({ message: 'Internal error in the dev server' }))
    } else {
      res.destroy()
    }
  }
}

/**
 * @param {import('node:http').Server} server
 * @param {number} port
 * @returns {Promise<void>}
 */
function listen(server, port) {
  return new Promise((resolve, reject) => {
    const onError = (/** @type {NodeJS.ErrnoException} */ error) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} on ${HOST} is in use: stop what holds it or choose another port`, { cause: error })
          : error,
      )
    }
    server.once('error', onError)
    server.listen(port, HOST, () => {
      server.off('error', onError)
      resolve()
    })
  })
}

/**
 * Stops accepting, ends keep-alive and streaming connections, and waits for the close.
 * @param {import('node:http').Server} server
 * @returns {Promise<void>}
 */
function stop(server) {
  if (!server.listening) return Promise.resolve()
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

/** @param {import('node:http').Server} server */
function portOf(server) {
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('The server has no TCP address')
  return address.port
}
