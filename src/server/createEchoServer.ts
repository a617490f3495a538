import { DEFAULT_API_URL, DEFAULT_ROUTER_URL, describeAppIdProblem, httpUrl } from '../config'
import { EchoError } from '../errors'
import type { FetchFunction } from '../api/tokenProvider'
import { bearerTokenOf, type EchoServerRequest } from './bearerToken'
import { afterFirstRouterAnswer } from './firstRouterAnswer'
import { jwtExpiresAtMs } from './jwtClaims'
import { answerForError, answerForRouterStatus, routeAnswers } from './routeAnswers'
import { serverUser, type EchoServerUser } from './serverUser'
import { TokenVerdicts, type TokenVerdict } from './tokenVerdicts'
import { VALIDATE_PATH, validateEchoToken } from './validateEchoToken'

/** Options of {@link createEchoServer}. */
export interface EchoServerOptions {
  /** Your app's id in Echo: tokens issued to another app are refused. */
  appId: string
  /** Echo's API host. Defaults to `https://echo.merit.systems`. */
  apiUrl?: string | undefined
  /** Echo's model router. Defaults to `https://echo.router.merit.systems`. */
  baseRouterUrl?: string | undefined
  /** The `fetch` to call Echo with; the global `fetch`, looked up at call time, when left out. */
  fetch?: FetchFunction | undefined
}

/**
 * A route handler of your own, run for a verified user; `context` is the framework's second argument (Next.js `{
 * params }`).
 */
export type EchoRouteHandler<Context = unknown> = (
  request: Request,
  user: EchoServerUser,
  context: Context,
) => Response | Promise<Response>

/** Echo on your server: who a request is from, and routes billed to them. */
export interface EchoServer {
  /**
   * The user whose Echo token `request` carries (`Authorization: Bearer <token>`, as the browser's
   * `useEchoFetch()` sends it), verified with Echo (once per token, kept until it expires, at most
   * 5 minutes). Rejects with an `EchoError` `HTTP_401` when the token is missing, malformed,
   * expired, refused by Echo or issued to another app, and with a `NETWORK_ERROR` (or Echo's 5xx)
   * when Echo cannot be asked: never a pass.
   */
  userFrom(request: EchoServerRequest): Promise<EchoServerUser>
  /**
   * Wraps a handler so that the browser's session can act on what goes wrong: no or a bad token ->
   * 401; Echo's router refusing the token -> 401 (the session refreshes once and retries); no
   * credits -> 402 (the session offers a top-up), streamed answers too (the route waits for the
   * first model answer before it answers); Echo out of reach -> 503. Bodies are one plain sentence.
   */
  route<Context = unknown>(
    handler: EchoRouteHandler<Context>,
  ): (request: Request, context: Context) => Promise<Response>
}

/**
 * Echo on your own server: the browser keeps the session and sends the user's token to
 * your routes; here it is verified with Echo and spent at Echo's router, billed to the user. No
 * React, DOM or Redux; Web `Request`/`Response`, so Next.js route handlers, Remix, Hono, Bun, Deno
 * and edge runtimes. Make it once per process. Nothing is stored, and nothing refreshes a token.
 *
 * @example
 * // app/api/chat/route.ts (Next.js)
 * const echo = createEchoServer({ appId: process.env.ECHO_APP_ID! })
 * export const POST = echo.route(async (request, user) => {
 *   const { messages } = await request.json()
 *   const result = streamText({ model: user.modelProvider(createOpenAI)('gpt-4o-mini'), messages: await
 * convertToModelMessages(messages) })
 *   return result.toUIMessageStreamResponse()
 * })
 */
export function createEchoServer(options: EchoServerOptions): EchoServer {
  const {
    appId,
    apiUrl: apiUrlGiven = DEFAULT_API_URL,
    baseRouterUrl: routerUrlGiven = DEFAULT_ROUTER_URL,
    fetch: fetchGiven,
  } = options ?? ({} as Partial<EchoServerOptions>)
  const appIdProblem = describeAppIdProblem(appId, "createEchoServer's appId")
  if (appIdProblem !== null) throw new TypeError(appIdProblem)
  const apiUrl = httpUrl('apiUrl', apiUrlGiven)
  const baseRouterUrl = httpUrl('baseRouterUrl', routerUrlGiven)
  const fetch: FetchFunction = fetchGiven ?? ((input, init) => globalThis.fetch(input, init))
  const verdicts = new TokenVerdicts()
  const origins = { api: new URL(apiUrl).origin, router: new URL(baseRouterUrl).origin }

  const userFrom = async (
    request: EchoServerRequest,
    onRouterAnswer?: (status: number) => void,
  ): Promise<EchoServerUser> => {
    const token = bearerTokenOf(request)
    if (token === null)
      throw refused(
        "The request carries no Echo token: send it with the session's fetch (useEchoFetch()) and list this " +
          'server in serverOrigins',
        { refreshable: false },
      )
    const now = Date.now()
    const keyed = verdicts.keyOf(token)
    const key = typeof keyed === 'string' ? keyed : await keyed
    // A kept verdict is younger than the token's expiry: only a token not seen lately is read and asked about.
    const kept = verdicts.kept(key, now)
    let verdict: TokenVerdict
    if (kept !== undefined) verdict = await kept
    else {
      const expiresAt = jwtExpiresAtMs(token)
      if (expiresAt === null) throw refused('The Echo token is not a JWT')
      if (expiresAt <= now) throw refused('The Echo token has expired')
      verdict = await verdicts.keep(key, validateEchoToken(fetch, apiUrl, token), expiresAt, now)
    }
    if (!verdict.valid) throw refused(`Echo refused the token: ${verdict.error}`)
    if (verdict.appId !== appId)
      throw refused(`The Echo token was issued to app ${verdict.appId}, not to this server's app ${appId}`, {
        refreshable: false,
      })
    return serverUser({
      id: verdict.userId,
      appId,
      scope: verdict.scope,
      token,
      apiUrl,
      baseRouterUrl,
      origins,
      fetch,
      onRouterAnswer,
    })
  }

  return {
    userFrom: (request) => userFrom(request),
    route:
      <Context>(handler: EchoRouteHandler<Context>) =>
      async (request: Request, context: Context): Promise<Response> => {
        let firstStatus: number | undefined
        let reportFirst: (status: number) => void = () => undefined
        const firstRouterAnswer = new Promise<number>((resolve) => (reportFirst = resolve))
        let user: EchoServerUser
        try {
          user = await userFrom(request, (status) => {
            if (firstStatus !== undefined) return
            firstStatus = status
            reportFirst(status)
          })
        } catch (error) {
          if (error instanceof EchoError && error.statusCode === 401)
            return cannotBeRefreshed.has(error)
              ? routeAnswers.noToken(error.message)
              : routeAnswers.tokenRefused(error.message)
          if (error instanceof EchoError && error.reason === 'echo-unreachable') return routeAnswers.echoUnreachable()
          throw error
        }
        let response: Response
        try {
          response = await handler(request, user, context)
        } catch (error) {
          // The router's refusal, however the handler's client reported it (the AI SDK's own error, say).
          const answer =
            (firstStatus === undefined ? undefined : answerForRouterStatus(firstStatus)) ?? answerForError(error)
          if (answer === undefined) throw error
          return answer
        }
        // The first model answer already in (a route that awaited its model call): nothing to wait for.
        if (firstStatus !== undefined) return answerForRouterStatus(firstStatus) ?? response
        return afterFirstRouterAnswer(response, firstRouterAnswer)
      },
  }
}

/** Refusals a refresh cannot cure (no token, another app's token): the browser is not asked to refresh for them. */
const cannotBeRefreshed = new WeakSet<EchoError>()

function refused(message: string, { refreshable = true } = {}): EchoError {
  const error = new EchoError({ code: 'HTTP_401', statusCode: 401, endpoint: VALIDATE_PATH, message })
  if (!refreshable) cannotBeRefreshed.add(error)
  return error
}
