import { createAuthorizedSend, type AuthorizedSend } from '../api/authorizedFetch'
import { EchoClient } from '../api/EchoClient'
import type { EchoModelProviderSettings } from '../api/modelProviderSettings'
import type { EchoRouter } from '../api/router/EchoRouter'
import { routerOver } from '../api/router/routerOver'
import { assertTokenOrigin, urlOf } from '../api/tokenOrigins'
import type { FetchFunction, TokenProvider } from '../api/tokenProvider'

/** The signed-in user a request came from, on your server: their id, and Echo's doors, billed to them. */
export interface EchoServerUser {
  /** The user's Echo id. */
  id: string
  /** The app the token was issued to: always this server's `appId`. */
  appId: string
  /** The token's scope, e.g. `llm:invoke offline_access`. */
  scope: string
  /**
   * The user's access token, for a client echo-rtk does not wrap (the server-held session's, as renewed during this
   * request). It goes to Echo only; never store or log it.
   */
  readonly token: string
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
  /**
   * `response` with the user's session cookie as this request leaves it: renewed, or cleared when
   * Echo ended the session. `echo.route` does this for you; call it on your answer when you use
   * `echo.userFrom` with the server-held session. A bearer token's user gives `response` back as it is.
   */
  withSession(response: Response): Promise<Response>
}

/** What a server user is made with. */
export interface ServerUserParts {
  id: string
  appId: string
  scope: string
  /**
   * The user's token: a bearer token the browser sent, fixed and never refreshed (the browser owns that session);
   * or the server-held session's, renewed here once when Echo answers 401 to it.
   */
  tokens: { current: string; renew?: (() => Promise<string>) | undefined }
  apiUrl: string
  baseRouterUrl: string
  /** The origins of `apiUrl` and `baseRouterUrl`, read once per server. */
  origins: { api: string; router: string }
  fetch: FetchFunction
  /** Told the status of each answer from Echo's router (0: no answer), for `echo.route`. */
  onRouterAnswer?: ((status: number) => void) | undefined
  /** The user's answer with their session cookie as this request left it (the server-held session's). */
  withSession?: ((response: Response) => Promise<Response>) | undefined
}

/**
 * The user of a verified token: everything sends the token to Echo's `apiUrl` and `baseRouterUrl`
 * only. A bearer token is never refreshed (the browser owns the session: a 401 goes back to it); the
 * server-held session's is renewed once on a 401, and the call sent again, marked `X-Retry: true`.
 */
export function serverUser({
  id,
  appId,
  scope,
  tokens,
  apiUrl,
  baseRouterUrl,
  origins,
  fetch,
  onRouterAnswer,
  withSession,
}: ServerUserParts): EchoServerUser {
  const routerPrefix = `${origins.router}/`
  let token = tokens.current
  const { renew } = tokens
  const tokenProvider: TokenProvider = {
    getAccessToken: () => Promise.resolve(token),
    refreshToken: async () => {
      if (renew === undefined) throw new Error('A bearer token is not refreshed here: the browser refreshes it')
      token = await renew()
      return token
    },
  }
  const sendAuthorized = createAuthorizedSend({ tokenProvider, fetch, canRefresh: renew !== undefined })
  // What `echo.route` waits for is the answer that counts: the one after the refresh, when there was one.
  const send: AuthorizedSend =
    onRouterAnswer === undefined
      ? sendAuthorized
      : async (input, init) => {
          const toRouter = urlOf(input).startsWith(routerPrefix)
          try {
            const outcome = await sendAuthorized(input, init)
            if (toRouter) onRouterAnswer(outcome.response.status)
            return outcome
          } catch (error) {
            if (toRouter) onRouterAnswer(0)
            throw error
          }
        }
  const allowed = [origins.api, origins.router]
  const userFetch: FetchFunction = async (input, init) => {
    assertTokenOrigin(input, allowed)
    return (await send(input, init)).response
  }
  // The router and the client are made when a route first asks for them: most use one door.
  let router: EchoRouter | undefined
  let client: EchoClient | undefined
  return {
    id,
    appId,
    scope,
    get token() {
      return token
    },
    fetch: userFetch,
    get router() {
      return (router ??= routerOver(send, baseRouterUrl))
    },
    get client() {
      return (client ??=
        renew === undefined
          ? new EchoClient({ apiKey: token, apiUrl, fetch })
          : new EchoClient({ tokenProvider, apiUrl, fetch }))
    },
    modelProvider: (factory) => factory({ baseURL: baseRouterUrl, apiKey: 'echo', fetch: userFetch }),
    withSession: withSession ?? ((response) => Promise.resolve(response)),
  }
}
