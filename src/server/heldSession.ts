import { requestTokenGrant, text, type GrantReading, type TokenAnswer } from '../api/tokenGrant'
import type { FetchFunction } from '../api/tokenProvider'
import type { EchoUser } from '../api/userInfo'
import { DEFAULT_SCOPE } from '../config'
import type { CookieSealer } from './cookieSealer'
import { readChunked, removeCookie, requestCookies, writeChunked } from './cookies'
import { echoSdkCookieNames, sessionFromEchoSdkCookies } from './echoSdkCookies'
import type { HeldSession } from './sessionContents'

export type { HeldSession } from './sessionContents'

/** What a request's session gives: its tokens (renewed first when due), or why there are none. */
export type SessionTokens =
  | { kind: 'tokens'; session: HeldSession }
  /** Nobody is signed in here. */
  | { kind: 'none' }
  /** Echo refused the refresh: the session is over (its cookie is cleared on this answer). */
  | { kind: 'ended'; error: Error }
  /** Echo could not be reached for the refresh: the user stays signed in; try again later. */
  | { kind: 'unreachable'; error: Error }

/** What the server's sessions are made with. */
export interface HeldSessionsOptions {
  appId: string
  apiUrl: string
  fetch: FetchFunction
  sealer: CookieSealer
  now?: () => number
}

/** How long a refresh's answer is reused by requests that still carry the refresh token it spent. */
const SPENT_REFRESH_REUSE_MS = 30_000
/** The most refreshes remembered at once in one process (the oldest out first). */
const REMEMBERED_REFRESHES = 1_000
/** The session cookie's life when Echo does not say how long its refresh token lasts: Echo's own 30 days. */
const DEFAULT_SESSION_LIFE_MS = 30 * 24 * 60 * 60_000
/** A token is renewed when a third of its life is left, at most this long before it expires. */
const MAX_RENEW_AHEAD_MS = 60_000

/**
 * The sessions of one server process: how a request's session cookie opens, and the refresh of an
 * expired access token, one at a time per session in this process. A request that arrives with a
 * refresh token this process has just spent takes that refresh's answer instead of spending it
 * again; another process refreshing the same session at the same moment spends it too, inside
 * Echo's rotation grace (docs/security.md, "Server mode").
 */
export class HeldSessions {
  readonly cookieName: string
  readonly #options: HeldSessionsOptions
  readonly #now: () => number
  readonly #refreshes = new Map<string, { reading: Promise<GrantReading>; until: number }>()

  constructor(options: HeldSessionsOptions) {
    this.#options = options
    this.#now = options.now ?? (() => Date.now())
    this.cookieName = `echo_rtk_${options.appId}`
  }

  /** The session of one request, from its `Cookie` header. */
  forRequest(cookieHeader: string | null | undefined, secure: boolean): RequestSession {
    return new RequestSession(this, requestCookies(cookieHeader), secure)
  }

  /** @internal */
  get now(): number {
    return this.#now()
  }

  /** @internal */
  open(sealed: string): Promise<HeldSession | null> {
    return this.#options.sealer.open(sealed, this.cookieName).then(heldSessionOf)
  }

  /** @internal */
  seal(session: HeldSession): Promise<string> {
    return this.#options.sealer.seal(session, this.cookieName)
  }

  /** @internal */
  fromEchoSdk(cookies: Map<string, string>): HeldSession | null {
    return sessionFromEchoSdkCookies(cookies, this.#options.appId, this.now)
  }

  /** @internal */
  get appId(): string {
    return this.#options.appId
  }

  /** Echo's answer to spending `refreshToken`, shared by every request of this process that spends it meanwhile. */
  refresh(refreshToken: string, scope: string): Promise<GrantReading> {
    const now = this.now
    for (const [token, kept] of this.#refreshes) if (kept.until <= now) this.#refreshes.delete(token)
    const kept = this.#refreshes.get(refreshToken)
    if (kept !== undefined) return kept.reading
    const { fetch, apiUrl, appId } = this.#options
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: appId })
    if (scope !== '') form.set('scope', scope)
    const reading = requestTokenGrant(fetch, apiUrl, form).then((answer) => {
      const entry = this.#refreshes.get(refreshToken)
      // Kept a while for requests still carrying the spent token; a failure to reach Echo is tried again.
      if (entry !== undefined)
        if (answer.kind === 'unreachable') this.#refreshes.delete(refreshToken)
        else entry.until = this.now + SPENT_REFRESH_REUSE_MS
      return answer
    })
    this.#refreshes.set(refreshToken, { reading, until: Infinity })
    while (this.#refreshes.size > REMEMBERED_REFRESHES) this.#refreshes.delete(this.#refreshes.keys().next().value!)
    return reading
  }
}

/**
 * One request's view of its session cookie: read once, renewed when due, and what the answer must
 * set (`setCookies()`): the rotated session, a cleared one, or the Echo SDK's cookies taken over.
 */
export class RequestSession {
  readonly #sessions: HeldSessions
  readonly #cookies: Map<string, string>
  readonly #secure: boolean
  #read: Promise<HeldSession | null> | undefined
  /** What the answer must make the cookie: a new session, `null` (none), or `undefined` (leave it). */
  #write: HeldSession | null | undefined
  #tookOverEchoSdk = false

  constructor(sessions: HeldSessions, cookies: Map<string, string>, secure: boolean) {
    this.#sessions = sessions
    this.#cookies = cookies
    this.#secure = secure
  }

  /** Whether the request carries a session cookie at all (echo-rtk's, or Echo's Next.js SDK's). */
  get hasCookie(): boolean {
    const name = this.#sessions.cookieName
    return (
      readChunked(this.#cookies, name) !== null || this.#cookies.has(echoSdkCookieNames(this.#sessions.appId).refresh)
    )
  }

  /** The session as the cookie holds it (or as this answer will set it); `null` for nobody. */
  held(): Promise<HeldSession | null> {
    if (this.#write !== undefined) return Promise.resolve(this.#write)
    return (this.#read ??= this.#readCookie())
  }

  async #readCookie(): Promise<HeldSession | null> {
    const sealed = readChunked(this.#cookies, this.#sessions.cookieName)
    if (sealed !== null) return this.#sessions.open(sealed)
    // Signed in by Echo's own Next.js SDK: taken over once, its cookies replaced by this one.
    const taken = this.#sessions.fromEchoSdk(this.#cookies)
    if (taken !== null) {
      this.#tookOverEchoSdk = true
      this.#write = taken
    }
    return taken
  }

  /** The session's tokens, the access token renewed first when it is due (or `force`d: Echo refused it). */
  async tokens({ force = false }: { force?: boolean } = {}): Promise<SessionTokens> {
    const session = await this.held()
    if (session === null) return { kind: 'none' }
    const now = this.#sessions.now
    if (!force && !isRenewDue(session, now)) return { kind: 'tokens', session }
    if (session.refreshToken === null || (session.refreshExpiresAt ?? Infinity) <= now) {
      this.#write = null
      return { kind: 'ended', error: new Error('The session has no refresh token left: sign in again') }
    }
    const reading = await this.#sessions.refresh(session.refreshToken, session.scope)
    if (reading.kind === 'unreachable') return reading
    if (reading.kind === 'refused') {
      this.#write = null
      return { kind: 'ended', error: reading.error }
    }
    const renewed = renewedSession(session, reading.answer, this.#sessions.now)
    this.#write = renewed
    return { kind: 'tokens', session: renewed }
  }

  /** Makes `session` this request's: the answer sets it (a sign-in). */
  signIn(session: HeldSession): void {
    this.#write = session
  }

  /** Ends the session on this answer (a sign-out). */
  signOut(): void {
    this.#write = null
    this.#tookOverEchoSdk = true
  }

  /** Whether this answer clears the session. */
  get isCleared(): boolean {
    return this.#write === null
  }

  /** The `Set-Cookie` values this answer must carry; none when the session is as the request had it. */
  async setCookies(): Promise<string[]> {
    const headers: string[] = []
    if (this.#write !== undefined) {
      const session = this.#write
      const sealed = session === null ? null : await this.#sessions.seal(session)
      const life = session === null ? 0 : (session.refreshExpiresAt ?? this.#sessions.now + DEFAULT_SESSION_LIFE_MS)
      const maxAge = session === null ? 0 : (life - this.#sessions.now) / 1000
      headers.push(...writeChunked(this.#cookies, this.#sessions.cookieName, sealed, { secure: this.#secure, maxAge }))
    }
    if (this.#tookOverEchoSdk)
      for (const name of Object.values(echoSdkCookieNames(this.#sessions.appId)))
        if (this.#cookies.has(name)) headers.push(removeCookie(name, this.#secure))
    return headers
  }
}

/** Whether `session`'s access token should be renewed at `now`: a third of its life left, at most a minute. */
function isRenewDue(session: HeldSession, now: number): boolean {
  const life = Math.max(0, session.expiresAt - session.checkedAt)
  return now >= session.expiresAt - Math.min(MAX_RENEW_AHEAD_MS, life / 3)
}

/** The session a token answer starts (a sign-in's code exchange), for `user`. */
export function sessionFromAnswer(answer: TokenAnswer, user: EchoUser, now: number): HeldSession {
  return {
    accessToken: answer.access_token,
    refreshToken: text(answer.refresh_token) ?? null,
    expiresAt: expiresAtOf(answer, now),
    refreshExpiresAt: refreshExpiresAtOf(answer, now),
    scope: text(answer.scope) ?? DEFAULT_SCOPE,
    user,
    checkedAt: now,
  }
}

/** `session` after a refresh: Echo's new tokens, and what the answer leaves out carried over. */
function renewedSession(session: HeldSession, answer: TokenAnswer, now: number): HeldSession {
  return {
    ...session,
    accessToken: answer.access_token,
    refreshToken: text(answer.refresh_token) ?? session.refreshToken,
    expiresAt: expiresAtOf(answer, now),
    refreshExpiresAt: refreshExpiresAtOf(answer, now) ?? session.refreshExpiresAt,
    scope: text(answer.scope) ?? session.scope,
    checkedAt: now,
  }
}

/** When the answer's access token expires; Echo always says, and a token that does not is treated as short-lived. */
function expiresAtOf(answer: TokenAnswer, now: number): number {
  const seconds = answer.expires_in
  return now + (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : 60) * 1000
}

function refreshExpiresAtOf(answer: TokenAnswer, now: number): number | null {
  const seconds = answer.refresh_token_expires_in
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? now + seconds * 1000 : null
}

/** `value` if it is a session this code sealed, else `null` (a cookie from an older format, say). */
function heldSessionOf(value: unknown): HeldSession | null {
  const session = value as Partial<HeldSession> | null
  if (typeof session !== 'object' || session === null) return null
  const { accessToken, refreshToken, expiresAt, user } = session
  if (typeof accessToken !== 'string' || typeof expiresAt !== 'number') return null
  if (refreshToken !== null && typeof refreshToken !== 'string') return null
  if (typeof user !== 'object' || user === null || typeof user.id !== 'string') return null
  return session as HeldSession
}
