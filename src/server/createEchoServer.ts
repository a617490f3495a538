import { DEFAULT_API_URL, DEFAULT_ROUTER_URL, DEFAULT_SCOPE, describeAppIdProblem, httpUrl } from '../config'
import { EchoError } from '../errors'
import type { FetchFunction } from '../api/tokenProvider'
import { bearerTokenOf, headerOf, type EchoServerRequest } from './bearerToken'
import { createCookieSealer, MIN_SECRET_LENGTH } from './cookieSealer'
import { afterFirstRouterAnswer } from './firstRouterAnswer'
import { HeldSessions, type RequestSession } from './heldSession'
import { jwtExpiresAtMs } from './jwtClaims'
import { appOriginOf, isCrossSite, isSecureOrigin } from './requestOrigin'
import { answerForError, answerForRouterStatus, routeAnswers } from './routeAnswers'
import { sessionAnswers, withCookies } from './sessionAnswers'
import { createSessionHandler, type SessionHandlerParts } from './sessionHandler'
import { serverUser, type EchoServerUser } from './serverUser'
import { createSignInRoutes } from './signInRoutes'
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
  /**
   * The server-held session (the page's `EchoConfig.session: 'server'`): this server signs the user
   * in and keeps their tokens in an encrypted, HttpOnly cookie, so no script in the page can read
   * them. `secret` seals the cookie: at least 32 characters, from your server's environment (a list
   * rotates it: the first seals, every one opens). Left `undefined` (the environment not set, as
   * in a build), each request to `echo.handler` answers 500 and logs what to set.
   *
   * @example
   * session: { secret: process.env.ECHO_SESSION_SECRET }
   */
  session?: EchoServerSessionOptions | undefined
  /** Where `echo.handler` is mounted: the page's `EchoConfig.serverUrl`. Defaults to `/api/echo`. */
  serverUrl?: string | undefined
  /**
   * The app's own origin (`https://app.example.com`), where a TLS proxy in front of the server makes
   * the request's own address another (`http://localhost:3000`). Requests with the session cookie
   * from any other origin are refused 403; cookies are `Secure` unless it is plain http on a loopback
   * host. Defaults to each request's own origin.
   */
  appOrigin?: string | undefined
  /** The OAuth scope a sign-in asks for. Defaults to `llm:invoke offline_access`. */
  scope?: string | undefined
}

/** The server-held session's settings: the secret that seals its cookie, and where Echo sends the user back. */
export interface EchoServerSessionOptions {
  /** At least 32 characters (or a list of such, the first sealing): `openssl rand -base64 32` makes one. */
  secret: string | readonly string[] | undefined
  /**
   * Where Echo sends the user back after sign-in: an absolute URL that reaches `echo.handler`'s
   * `callback` route. Defaults to `<app origin><serverUrl>/callback`; register it with your Echo app.
   */
  redirectUri?: string | undefined
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
   * The user whose Echo token `request` carries: `Authorization: Bearer <token>` (the browser's
   * `useEchoFetch()` in browser mode), verified with Echo (once per token, kept until it expires, at
   * most 5 minutes); else the server-held session's cookie, its token renewed first when due. Rejects
   * with an `EchoError` `HTTP_401` when there is no token or Echo refuses it, `HTTP_403` for a request
   * with the cookie from a page of another site, and `NETWORK_ERROR` (or Echo's 5xx) when Echo cannot
   * be reached: never a pass. With the cookie, answer through `user.withSession(response)`.
   */
  userFrom(request: EchoServerRequest): Promise<EchoServerUser>
  /**
   * Wraps a handler so that the browser's session can act on what goes wrong: no or a bad token ->
   * 401; Echo's router refusing the token -> 401 (the session refreshes once and retries); no
   * credits -> 402 (the session offers a top-up), streamed answers too (the route waits for the
   * first model answer before it answers); Echo out of reach -> 503. Bodies are one plain sentence.
   * With the server-held session, the renewed cookie goes on the answer.
   */
  route<Context = unknown>(
    handler: EchoRouteHandler<Context>,
  ): (request: Request, context: Context) => Promise<Response>
  /**
   * Every route of the server-held session, under `serverUrl` (`/api/echo`): `GET signin`,
   * `GET callback`, `GET session`, `POST signout`, Echo's API calls (`api/v1/*`) and the model
   * router (`router/*`, streamed). Mount it as the catch-all route there.
   *
   * @example
   * // app/api/echo/[...echo]/route.ts (Next.js)
   * export const GET = echo.handler
   * export const POST = echo.handler
   */
  readonly handler: (request: Request) => Promise<Response>
}

/**
 * Echo on your own server. Two ways to hold the user's session:
 * - in the browser (the default): the page sends the user's token to your routes, verified here with
 *   Echo and spent at Echo's router, billed to the user; nothing is stored here and nothing
 *   refreshes a token;
 * - here (`session: { secret }`, and `session: 'server'` in the page's config): this server signs
 *   the user in, keeps the tokens in an encrypted HttpOnly cookie (no server store: any number of
 *   instances serve it), renews them, and serves the page's calls through `echo.handler`.
 *
 * No React, DOM or Redux; Web `Request`/`Response`, so Next.js route handlers, Remix, Hono, Bun,
 * Deno and edge runtimes. Make it once per process.
 *
 * @example
 * // app/echo.ts (Next.js)
 * export const echo = createEchoServer({
 *   appId: process.env.ECHO_APP_ID!,
 *   session: { secret: process.env.ECHO_SESSION_SECRET },
 * })
 * // app/api/chat/route.ts
 * export const POST = echo.route(async (request, user) => {
 *   const { messages } = await request.json()
 *   const result = streamText({ model: user.modelProvider(createOpenAI)('gpt-4o-mini'), messages })
 *   return result.toUIMessageStreamResponse()
 * })
 */
export function createEchoServer(options: EchoServerOptions): EchoServer {
  const {
    appId,
    apiUrl: apiUrlGiven = DEFAULT_API_URL,
    baseRouterUrl: routerUrlGiven = DEFAULT_ROUTER_URL,
    fetch: fetchGiven,
    session: sessionOptions,
    serverUrl = '/api/echo',
    appOrigin: appOriginGiven,
    scope = DEFAULT_SCOPE,
  } = options ?? ({} as Partial<EchoServerOptions>)
  const appIdProblem = describeAppIdProblem(appId, "createEchoServer's appId")
  if (appIdProblem !== null) throw new TypeError(appIdProblem)
  const apiUrl = httpUrl('apiUrl', apiUrlGiven)
  const baseRouterUrl = httpUrl('baseRouterUrl', routerUrlGiven)
  const appOrigin = appOriginGiven === undefined ? undefined : originOnly('appOrigin', appOriginGiven)
  const basePath = basePathOf(serverUrl)
  const fetch: FetchFunction = fetchGiven ?? ((input, init) => globalThis.fetch(input, init))
  const verdicts = new TokenVerdicts()
  const origins = { api: new URL(apiUrl).origin, router: new URL(baseRouterUrl).origin }
  const held = heldSessionParts(sessionOptions, { appId, apiUrl, fetch, scope, basePath })

  const bearerUser = async (token: string, onRouterAnswer?: (status: number) => void): Promise<EchoServerUser> => {
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
      tokens: { current: token },
      apiUrl,
      baseRouterUrl,
      origins,
      fetch,
      onRouterAnswer,
    })
  }

  /** The user of the server-held session `request` carries, its token renewed first when due. */
  const cookieUser = async (
    session: RequestSession,
    onRouterAnswer?: (status: number) => void,
  ): Promise<EchoServerUser> => {
    const tokens = await session.tokens()
    if (tokens.kind === 'none')
      throw refused(
        'The request carries no Echo session: sign in first (the server-held session), or send the token with the ' +
          "session's fetch (useEchoFetch()) and list this server in serverOrigins",
        { refreshable: false },
      )
    if (tokens.kind === 'ended') throw sessionEndedError(tokens.error)
    if (tokens.kind === 'unreachable')
      throw new EchoError({
        code: 'NETWORK_ERROR',
        reason: 'echo-unreachable',
        message: "Echo could not be reached to renew the user's session; try again",
        cause: tokens.error,
      })
    const renew = async () => {
      const renewed = await session.tokens({ force: true })
      if (renewed.kind === 'tokens') return renewed.session.accessToken
      throw renewed.kind === 'unreachable'
        ? renewed.error
        : sessionEndedError(renewed.kind === 'ended' ? renewed.error : undefined)
    }
    return serverUser({
      id: tokens.session.user.id,
      appId,
      scope: tokens.session.scope,
      tokens: { current: tokens.session.accessToken, renew },
      apiUrl,
      baseRouterUrl,
      origins,
      fetch,
      onRouterAnswer,
      withSession: async (response) => withCookies(response, await session.setCookies()),
    })
  }

  /**
   * The session cookie's session of `request`, when it is the one to act on: no bearer token, and the
   * server-held session set up. Throws for a request with the cookie from a page of another site.
   */
  const cookieSessionOf = (request: EchoServerRequest): RequestSession | undefined => {
    if (bearerTokenOf(request) !== null || !('sessions' in held)) return undefined
    const requestOrigin = appOrigin ?? requestOriginOf(request)
    const headers = headersOf(request)
    if (isCrossSite({ url: requestOrigin, headers }, requestOrigin))
      throw new EchoError({
        code: 'HTTP_403',
        statusCode: 403,
        reason: 'cross-site',
        message: "Refused: a request with the user's session cookie that did not come from this app's own pages",
      })
    return held.sessions.forRequest(headers.get('cookie'), isSecureOrigin(requestOrigin))
  }

  /** The user `request` is from: its bearer token first, else `session` (its session cookie's). */
  const userFrom = async (
    request: EchoServerRequest,
    session: RequestSession | undefined,
    onRouterAnswer?: (status: number) => void,
  ): Promise<EchoServerUser> => {
    if (session !== undefined) return cookieUser(session, onRouterAnswer)
    const token = bearerTokenOf(request)
    if (token === null)
      throw refused(
        "The request carries no Echo token: send it with the session's fetch (useEchoFetch()) and list this " +
          'server in serverOrigins',
        { refreshable: false },
      )
    return bearerUser(token, onRouterAnswer)
  }

  const handlerParts: SessionHandlerParts = {
    apiUrl,
    baseRouterUrl,
    fetch,
    basePath,
    appOrigin,
    session: held,
    logError: (message) => console.error(message),
  }

  return {
    userFrom: async (request) => userFrom(request, cookieSessionOf(request)),
    route:
      <Context>(handler: EchoRouteHandler<Context>) =>
      async (request: Request, context: Context): Promise<Response> => {
        let firstStatus: number | undefined
        let reportFirst: (status: number) => void = () => undefined
        const firstRouterAnswer = new Promise<number>((resolve) => (reportFirst = resolve))
        let user: EchoServerUser
        let session: RequestSession | undefined
        try {
          session = cookieSessionOf(request)
          user = await userFrom(request, session, (status) => {
            if (firstStatus !== undefined) return
            firstStatus = status
            reportFirst(status)
          })
        } catch (error) {
          if (error instanceof EchoError && error.reason === 'cross-site') return sessionAnswers.crossSite()
          if (error instanceof EchoError && error.reason === 'session-ended')
            return withCookies(sessionAnswers.ended(), (await session?.setCookies()) ?? [])
          if (error instanceof EchoError && error.statusCode === 401)
            return cannotBeRefreshed.has(error)
              ? routeAnswers.noToken(error.message)
              : routeAnswers.tokenRefused(error.message)
          if (error instanceof EchoError && error.reason === 'echo-unreachable') return routeAnswers.echoUnreachable()
          throw error
        }
        const answer = await answerFor(() => handler(request, user, context))
        // The server-held session ended during the call (Echo refused the renewal): the page signs out.
        if (session?.isCleared) {
          void answer.body?.cancel().catch(() => undefined)
          return user.withSession(sessionAnswers.ended())
        }
        return user.withSession(answer)

        async function answerFor(run: () => Response | Promise<Response>): Promise<Response> {
          let response: Response
          try {
            response = await run()
          } catch (error) {
            // The router's refusal, however the handler's client reported it (the AI SDK's own error, say).
            const refusal =
              (firstStatus === undefined ? undefined : answerForRouterStatus(firstStatus)) ?? answerForError(error)
            if (refusal === undefined) throw error
            return refusal
          }
          // The first model answer already in (a route that awaited its model call): nothing to wait for.
          if (firstStatus !== undefined) return answerForRouterStatus(firstStatus) ?? response
          return afterFirstRouterAnswer(response, firstRouterAnswer)
        }
      },
    handler: createSessionHandler(handlerParts),
  }
}

/**
 * The server-held session's parts for these options: its sessions and sign-in routes, or why there
 * are none. A secret given but too short is a mistake in the code, refused at once; a missing one is
 * an environment not set (as in a build), said on each request.
 */
function heldSessionParts(
  options: EchoServerSessionOptions | undefined,
  server: { appId: string; apiUrl: string; fetch: FetchFunction; scope: string; basePath: string },
): SessionHandlerParts['session'] {
  if (options === undefined)
    return {
      missing:
        'echo-rtk: echo.handler serves the server-held session, and createEchoServer was given no session: pass ' +
        'session: { secret: process.env.ECHO_SESSION_SECRET } (and session: "server" in the page\'s EchoConfig)',
    }
  const { secret, redirectUri } = options
  const secrets = secret === undefined ? [] : typeof secret === 'string' ? [secret] : [...secret]
  if (secrets.length === 0 || secrets.some((one) => typeof one !== 'string' || one === ''))
    return {
      missing:
        "echo-rtk: createEchoServer's session.secret is missing, so no one can sign in: set ECHO_SESSION_SECRET (or " +
        "the variable you pass as session.secret) in the server's environment to 32 or more random characters, " +
        'for example the output of `openssl rand -base64 32`',
    }
  const short = secrets.find((one) => one.length < MIN_SECRET_LENGTH)
  if (short !== undefined)
    throw new TypeError(
      `createEchoServer's session.secret must be at least ${MIN_SECRET_LENGTH} characters (got ${short.length}): ` +
        'set it to 32 or more random characters, for example the output of `openssl rand -base64 32`',
    )
  const callbackUri =
    redirectUri === undefined ? undefined : httpUrl('redirectUri', redirectUri, { keepTrailingSlash: true })
  const sealer = createCookieSealer(secrets)
  const sessions = new HeldSessions({ appId: server.appId, apiUrl: server.apiUrl, fetch: server.fetch, sealer })
  const signInRoutes = createSignInRoutes({
    ...server,
    sealer,
    sessions,
    redirectUri: (origin) => callbackUri ?? `${origin}${server.basePath}/callback`,
  })
  return { sessions, signInRoutes }
}

/** `serverUrl` as the path the routes are mounted under: `/api/echo`, no trailing slash. */
function basePathOf(serverUrl: string): string {
  if (typeof serverUrl !== 'string' || !serverUrl.startsWith('/') || serverUrl.startsWith('//'))
    throw new TypeError(
      `createEchoServer's serverUrl must be the path its routes are mounted at, such as '/api/echo' (got ${JSON.stringify(serverUrl)})`,
    )
  return serverUrl.replace(/\/+$/, '')
}

function originOnly(field: string, value: string): string {
  const url = new URL(httpUrl(field, value))
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
    throw new TypeError(`createEchoServer's ${field} must be an origin such as https://app.example.com (got ${value})`)
  return url.origin
}

/** The origin a request was sent to: a Web `Request`'s (as `appOriginOf` reads it), or a Node request's `Host` (https unless loopback). */
function requestOriginOf(request: EchoServerRequest): string {
  if (request instanceof Request) return appOriginOf(request, undefined)
  const host = headerOf(request, 'host') ?? 'localhost'
  return `${/^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host) ? 'http' : 'https'}://${host}`
}

function headersOf(request: EchoServerRequest): Headers {
  if (request instanceof Request) return request.headers
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  return headers
}

/** Refusals a refresh cannot cure (no token, another app's token): the browser is not asked to refresh for them. */
const cannotBeRefreshed = new WeakSet<EchoError>()

function refused(message: string, { refreshable = true } = {}): EchoError {
  const error = new EchoError({ code: 'HTTP_401', statusCode: 401, endpoint: VALIDATE_PATH, message })
  if (!refreshable) cannotBeRefreshed.add(error)
  return error
}

function sessionEndedError(cause?: Error): EchoError {
  return new EchoError({
    code: 'HTTP_401',
    statusCode: 401,
    reason: 'session-ended',
    message: "Echo refused to renew the user's session: they must sign in again",
    cause,
  })
}
