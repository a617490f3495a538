import { withToken } from '../api/authorizedFetch'
import { EchoClient } from '../api/EchoClient'
import type { EchoModelProviderSettings } from '../api/modelProviderSettings'
import type { EchoRouter } from '../api/router/EchoRouter'
import { routerOver } from '../api/router/createEchoRouter'
import { assertTokenOrigin, urlOf } from '../api/tokenOrigins'
import type { FetchFunction } from '../api/tokenProvider'

/** The signed-in user a request came from, on your server: their id, and Echo's doors, billed to them. */
export interface EchoServerUser {
  /** The user's Echo id. */
  id: string
  /** The app the token was issued to: always this server's `appId`. */
  appId: string
  /** The token's scope, e.g. `llm:invoke offline_access`. */
  scope: string
  /** The user's access token, for a client echo-rtk does not wrap. It goes to Echo only; never store or log it. */
  token: string
  /** A `fetch` that sends the token to Echo's API and router, and refuses any other origin. Never refreshes. */
  fetch: FetchFunction
  /** Echo's model router as the user (`createEchoRouter`'s methods). */
  router: EchoRouter
  /** Echo's API as the user: `client.balance.get()`, `client.payments.createPaymentLink(...)`. */
  client: EchoClient
  /**
   * An AI SDK provider billed to the user: `factory({ baseURL, apiKey: 'echo', fetch })`, the same
   * shape as `useEchoModelProvider` in the browser.
   *
   * @example
   * const openai = user.modelProvider(createOpenAI)
   * const result = streamText({ model: openai('gpt-4o-mini'), messages })
   */
  modelProvider<Provider>(factory: (settings: EchoModelProviderSettings) => Provider): Provider
}

/** What a server user is made with. */
export interface ServerUserParts {
  id: string
  appId: string
  scope: string
  token: string
  apiUrl: string
  baseRouterUrl: string
  /** The origins of `apiUrl` and `baseRouterUrl`, read once per server. */
  origins: { api: string; router: string }
  fetch: FetchFunction
  /** Told the status of each answer from Echo's router (0: no answer), for `echo.route`. */
  onRouterAnswer?: ((status: number) => void) | undefined
}

/**
 * The user of a verified token: everything sends the token to Echo's `apiUrl` and `baseRouterUrl`
 * only, and nothing refreshes it (the browser owns the session: a 401 goes back to it).
 */
export function serverUser({
  id,
  appId,
  scope,
  token,
  apiUrl,
  baseRouterUrl,
  origins,
  fetch,
  onRouterAnswer,
}: ServerUserParts): EchoServerUser {
  const routerPrefix = `${origins.router}/`
  const watched: FetchFunction =
    onRouterAnswer === undefined
      ? fetch
      : async (input, init) => {
          const toRouter = urlOf(input).startsWith(routerPrefix)
          try {
            const response = await fetch(input, init)
            if (toRouter) onRouterAnswer(response.status)
            return response
          } catch (error) {
            if (toRouter) onRouterAnswer(0)
            throw error
          }
        }
  // The token is fixed and never refreshed: a send is the request with it, and its answer.
  const send = (input: RequestInfo | URL, init: RequestInit = {}) => watched(...withToken(input, init, token, false))
  const sendAuthorized = async (input: RequestInfo | URL, init?: RequestInit) => ({ response: await send(input, init) })
  const allowed = [origins.api, origins.router]
  const userFetch: FetchFunction = async (input, init) => {
    assertTokenOrigin(input, allowed)
    return send(input, init)
  }
  // The router and the client are made when a route first asks for them: most use one door.
  let router: EchoRouter | undefined
  let client: EchoClient | undefined
  return {
    id,
    appId,
    scope,
    token,
    fetch: userFetch,
    get router() {
      return (router ??= routerOver(sendAuthorized, baseRouterUrl))
    },
    get client() {
      return (client ??= new EchoClient({ apiKey: token, apiUrl, fetch: watched }))
    },
    modelProvider: (factory) => factory({ baseURL: baseRouterUrl, apiKey: 'echo', fetch: userFetch }),
  }
}
