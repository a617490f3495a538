import { ECHO_REASONS, SERVER_ROUTES, type ServerSessionAnswer } from '../api/serverRoutes'
import type { FetchFunction } from '../api/tokenProvider'
import type { HeldSessions, RequestSession } from './heldSession'
import { appOriginOf, canHoldCookies, isCrossSite, isSecureOrigin } from './requestOrigin'
import { json, sentence, sessionAnswers, withCookies } from './sessionAnswers'
import { isProxiedApiCall, proxyAsUser } from './sessionProxy'
import type { createSignInRoutes } from './signInRoutes'

/** What the server-held session's routes are made with. */
export interface SessionHandlerParts {
  apiUrl: string
  baseRouterUrl: string
  fetch: FetchFunction
  /** Where the routes are mounted: `/api/echo` unless the app says otherwise. */
  basePath: string
  /** The app's origin as it states it (behind a TLS proxy); the request's own when left out. */
  appOrigin: string | undefined
  /** The sessions and the sign-in routes, or why there are none: the secret is missing. */
  session: { sessions: HeldSessions; signInRoutes: ReturnType<typeof createSignInRoutes> } | { missing: string }
  logError(message: string): void
}

/**
 * `echo.handler`: every route of the server-held session under `basePath` (docs/nextjs.md,
 * "Server mode: the session on your server"). Sign-in and its callback are the only routes a page of another site may lead to;
 * everything else is refused 403 unless it comes from the app's own pages, before anything reaches
 * Echo.
 */
export function createSessionHandler(parts: SessionHandlerParts): (request: Request) => Promise<Response> {
  const { basePath, fetch } = parts
  return async (request) => {
    const url = new URL(request.url)
    if (!url.pathname.startsWith(`${basePath}/`))
      return sentence(404, `echo-rtk's routes are under ${basePath}/; this is ${url.pathname}`)
    const route = url.pathname.slice(basePath.length + 1)
    if (!('sessions' in parts.session)) {
      parts.logError(parts.session.missing)
      return sentence(
        500,
        "Sign-in is not set up on this server yet: its session secret is missing (see the server's log).",
      )
    }
    const { sessions, signInRoutes } = parts.session
    const appOrigin = appOriginOf(request, parts.appOrigin)
    if (!canHoldCookies(appOrigin))
      return sentence(
        500,
        `The session cookie needs https, and this request arrived at ${appOrigin}: serve the app over https, or ` +
          "behind a TLS proxy state its origin with createEchoServer({ appOrigin: 'https://…' })",
      )
    const secure = isSecureOrigin(appOrigin)
    const cookieHeader = request.headers.get('cookie')
    const method = request.method.toUpperCase()
    // The two ways into a sign-in are top-level navigations, from Echo's page among others.
    if (route === SERVER_ROUTES.signIn || route === SERVER_ROUTES.callback) {
      if (method !== 'GET') return sentence(405, `${route} takes GET`, { Allow: 'GET' })
      const signInRequest = { url, cookieHeader, appOrigin, secure, userAgent: request.headers.get('user-agent') }
      return route === SERVER_ROUTES.signIn ? signInRoutes.signIn(signInRequest) : signInRoutes.callback(signInRequest)
    }
    if (isCrossSite(request, appOrigin)) return sessionAnswers.crossSite()
    const session = sessions.forRequest(cookieHeader, secure)
    if (route === SERVER_ROUTES.session) {
      if (method !== 'GET') return sentence(405, 'session takes GET', { Allow: 'GET' })
      const [body, reason] = await sessionAnswerOf(session)
      const headers: Record<string, string> = reason === undefined ? {} : { 'X-Echo-Reason': reason }
      return withCookies(json(200, body, headers), await session.setCookies())
    }
    if (route === SERVER_ROUTES.signOut) {
      if (method !== 'POST') return sentence(405, 'signout takes POST', { Allow: 'POST' })
      // Echo has no revocation: the cookie goes, and with it every token this server held (docs/security.md).
      session.signOut()
      return withCookies(json(200, { user: null } satisfies ServerSessionAnswer), await session.setCookies())
    }
    if (route.startsWith(`${SERVER_ROUTES.api}/`)) {
      const path = route.slice(SERVER_ROUTES.api.length + 1)
      if (!isProxiedApiCall(method, path))
        return sentence(404, `echo-rtk's session does not pass ${method} /api/v1/${path} on to Echo`)
      return proxyAsUser(request, `${parts.apiUrl}/api/v1/${path}${url.search}`, session, fetch)
    }
    if (route.startsWith(`${SERVER_ROUTES.router}/`)) {
      const target = new URL(`${parts.baseRouterUrl}/${route.slice(SERVER_ROUTES.router.length + 1)}${url.search}`)
      if (!target.href.startsWith(`${parts.baseRouterUrl}/`)) return sentence(404, 'No such router path')
      return proxyAsUser(request, target.href, session, fetch)
    }
    return sentence(404, `echo-rtk has no route ${basePath}/${route}`)
  }
}

/**
 * What `GET session` says of `session`, and the reason it gives in `X-Echo-Reason`: the user (the
 * access token renewed first when due), the session ended on this answer, or the user still signed in
 * while Echo cannot be reached.
 */
async function sessionAnswerOf(session: RequestSession): Promise<[ServerSessionAnswer, string | undefined]> {
  const tokens = await session.tokens()
  if (tokens.kind === 'tokens') return [{ user: tokens.session.user, checkedAt: tokens.session.checkedAt }, undefined]
  if (tokens.kind === 'ended') return [{ user: null, reason: ECHO_REASONS.sessionEnded }, ECHO_REASONS.sessionEnded]
  const held = await session.held()
  if (tokens.kind === 'none' || held === null) return [{ user: null }, undefined]
  return [{ user: held.user, checkedAt: held.checkedAt }, ECHO_REASONS.echoUnreachable]
}
