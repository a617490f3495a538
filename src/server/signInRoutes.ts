import { serverSessionChannel, SIGN_IN_ERROR_PARAMS } from '../api/serverRoutes'
import { requestTokenGrant } from '../api/tokenGrant'
import type { FetchFunction } from '../api/tokenProvider'
import { fetchUserInfo, toEchoUser } from '../api/userInfo'
import { ECHO_PATHS } from '../echoPaths'
import { EchoError } from '../errors'
import { pkceChallenge, randomText, type CookieSealer } from './cookieSealer'
import { removeCookie, requestCookies, setCookie } from './cookies'
import { sessionFromAnswer, type HeldSessions } from './heldSession'
import { sameOriginPath } from './requestOrigin'
import { redirect, sentence } from './sessionAnswers'

/** How long a sign-in may take, from leaving for Echo to coming back: its state cookie lives this long. */
const SIGN_IN_LIFE_S = 600

/** What a sign-in under way keeps in its own sealed cookie until Echo sends the user back. */
interface SignInState {
  verifier: string
  returnTo: string
  redirectUri: string
  popup: boolean
  startedAt: number
}

/** What the sign-in routes are made with. */
export interface SignInRouteParts {
  appId: string
  apiUrl: string
  scope: string
  fetch: FetchFunction
  sealer: CookieSealer
  sessions: HeldSessions
  /** Where Echo sends the user back: the app's own `callback` route unless the app says otherwise. */
  redirectUri: (appOrigin: string) => string
}

/** One request to a sign-in route, as the handler has read it. */
export interface SignInRequest {
  url: URL
  cookieHeader: string | null
  appOrigin: string
  secure: boolean
  userAgent: string | null
}

/**
 * The sign-in routes of the server-held session: `signin` leaves for Echo (authorization code with
 * PKCE made here, the state and verifier in a short-lived sealed cookie), `callback` comes back
 * (the one code exchange, the profile, the session cookie, and back to the page that left).
 */
export function createSignInRoutes(parts: SignInRouteParts) {
  const { appId, apiUrl, scope, fetch, sealer, sessions } = parts
  // A callback asked twice at once in this process (a double load of the address) exchanges its code once.
  const exchanges = new Map<string, Promise<Response>>()
  const stateCookie = (state: string) => `echo_rtk_signin_${state}`

  async function signIn({ url, appOrigin, secure }: SignInRequest): Promise<Response> {
    const asked = url.searchParams.get('returnTo') ?? '/'
    const returnTo = sameOriginPath(asked, appOrigin)
    if (returnTo === null)
      return sentence(
        400,
        `returnTo must be a path of this app, such as /settings?tab=2 (got ${JSON.stringify(asked)}): ` +
          'a sign-in never leads to another site',
      )
    const state = randomText(16)
    const verifier = randomText(32)
    const redirectUri = parts.redirectUri(appOrigin)
    const signInState: SignInState = {
      verifier,
      returnTo,
      redirectUri,
      popup: url.searchParams.get('popup') === '1',
      startedAt: sessions.now,
    }
    const authorize = new URL(`${apiUrl}${ECHO_PATHS.authorize}`)
    for (const [name, value] of Object.entries({
      client_id: appId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope,
      state,
      code_challenge: await pkceChallenge(verifier),
      code_challenge_method: 'S256',
    }))
      authorize.searchParams.set(name, value)
    const sealed = await sealer.seal(signInState, stateCookie(state))
    return redirect(authorize.href, [setCookie(stateCookie(state), sealed, { secure, maxAge: SIGN_IN_LIFE_S })])
  }

  async function callback(request: SignInRequest): Promise<Response> {
    const state = request.url.searchParams.get('state') ?? ''
    const running = exchanges.get(state)
    if (running !== undefined) return (await running).clone()
    const answer = completeSignIn(request, state)
    if (state !== '') exchanges.set(state, answer)
    try {
      return (await answer).clone()
    } finally {
      exchanges.delete(state)
    }
  }

  async function completeSignIn(request: SignInRequest, state: string): Promise<Response> {
    const { url, secure } = request
    const cookies = requestCookies(request.cookieHeader)
    const name = stateCookie(state)
    const sealed = /^[A-Za-z0-9_-]{16,64}$/.test(state) ? cookies.get(name) : undefined
    const opened = sealed === undefined ? null : await sealer.open(sealed, name)
    const signInState = signInStateOf(opened)
    const cleared = sealed === undefined ? [] : [removeCookie(name, secure)]
    if (signInState === null || signInState.startedAt + SIGN_IN_LIFE_S * 1000 < sessions.now) {
      // A callback loaded again once its sign-in was done (the back button, a reload) finds the user signed in.
      const session = sessions.forRequest(request.cookieHeader, secure)
      if ((await session.held()) !== null) return redirect('/', cleared)
      return backWithError(
        '/',
        cleared,
        'invalid_request',
        'This sign-in has expired or was already used: sign in again',
      )
    }
    const { returnTo, popup } = signInState
    const error = url.searchParams.get('error')
    if (error !== null) return backWithError(returnTo, cleared, error, url.searchParams.get('error_description'), popup)
    const code = url.searchParams.get('code')
    if (code === null) return backWithError(returnTo, cleared, 'invalid_request', 'Echo sent no code back', popup)
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: signInState.redirectUri,
      client_id: appId,
      code_verifier: signInState.verifier,
    })
    // Echo keeps, with each session, the device it was signed in from.
    const headers = request.userAgent === null ? undefined : { 'X-Client-User-Agent': request.userAgent }
    const reading = await requestTokenGrant(fetch, apiUrl, form, { headers })
    if (reading.kind === 'unreachable')
      return backWithError(
        returnTo,
        cleared,
        'temporarily_unavailable',
        'Echo could not be reached to complete the sign-in: try again in a moment',
        popup,
      )
    if (reading.kind === 'refused')
      return backWithError(returnTo, cleared, 'access_denied', reading.error.message, popup)
    let user
    try {
      user = toEchoUser(await fetchUserInfo(fetch, apiUrl, reading.answer.access_token))
    } catch (failure) {
      const message = failure instanceof EchoError ? failure.message : 'Echo did not say who signed in'
      return backWithError(returnTo, cleared, 'temporarily_unavailable', message, popup)
    }
    const session = sessions.forRequest(request.cookieHeader, secure)
    session.signIn(sessionFromAnswer(reading.answer, user, sessions.now))
    const setCookies = [...cleared, ...(await session.setCookies())]
    return popup ? popupDone(appId, setCookies) : redirect(returnTo, setCookies)
  }

  /** Back to the page that left, with Echo's error for it to show; a popup's window says it and closes. */
  function backWithError(
    returnTo: string,
    setCookies: string[],
    error: string,
    description: string | null,
    popup = false,
  ): Response {
    const [path, hash = ''] = returnTo.split('#', 2)
    const back = new URL(path!, 'http://app.invalid')
    back.searchParams.set(SIGN_IN_ERROR_PARAMS.error, error)
    if (description !== null) back.searchParams.set(SIGN_IN_ERROR_PARAMS.description, description)
    const location = `${back.pathname}${back.search}${hash === '' ? '' : `#${hash}`}`
    return popup ? popupDone(appId, setCookies, { error, description }) : redirect(location, setCookies)
  }

  return { signIn, callback }
}

/**
 * The page a popup sign-in ends on: it tells the app's tabs (no token: the session is in the cookie)
 * and closes itself; the page that opened it also sees it close and asks the server who signed in.
 */
function popupDone(appId: string, setCookies: string[], failure?: { error: string; description: string | null }) {
  const message = JSON.stringify(failure === undefined ? { type: 'signed-in' } : { type: 'sign-in-failed', ...failure })
  const channel = JSON.stringify(serverSessionChannel(appId))
  const html =
    `<!doctype html><meta charset="utf-8"><title>Echo sign-in</title>` +
    `<p>${failure === undefined ? 'Signed in.' : 'Sign-in did not complete.'} You can close this window.</p>` +
    `<script>try{new BroadcastChannel(${channel}).postMessage(${message.replace(/</g, '\\u003c')})}catch(e){}` +
    `window.close()</script>`
  const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie)
  return new Response(html, { status: 200, headers })
}

function signInStateOf(value: unknown): SignInState | null {
  const state = value as Partial<SignInState> | null
  if (typeof state !== 'object' || state === null) return null
  const { verifier, returnTo, redirectUri, startedAt } = state
  if (typeof verifier !== 'string' || typeof returnTo !== 'string' || typeof redirectUri !== 'string') return null
  return typeof startedAt === 'number' ? (state as SignInState) : null
}
