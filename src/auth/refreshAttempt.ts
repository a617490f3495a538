import { abortable } from '../api/abortable'
import { causeText, requestTokenGrant, text } from '../api/tokenGrant'
import type { FetchFunction } from '../api/tokenProvider'
import type { ResolvedEchoConfig } from '../config'
import type { InterruptionCause, SignOutCause } from './causes'
import type { EchoEnvironment } from './environment'
import {
  expiresAtMs,
  newestUser,
  readStoredUser,
  refreshExpiresAtMs,
  storedUserKey,
  storeUser,
  toStorageString,
  withRefreshLife,
  type StoredUser,
} from './storedUser'
import type { TabSync } from './tabs'

/** One refresh attempt, from asking for its turn to Echo's answer, has 10 seconds. */
export const REFRESH_ATTEMPT_MS = 10_000

/**
 * How long a refresh-token grant that missed its attempt's deadline is still waited for. Echo has
 * rotated the refresh token by the time it answers, so a late answer is the session's only way on:
 * it is adopted if it comes. Past this the request is given up and the turn freed.
 */
export const LATE_ANSWER_MS = 60_000

/** How long a tab in its turn waits for another tab's hand-over before refreshing itself. */
const HANDOVER_GRACE_MS = 150

/**
 * How a refresh attempt ended (docs/session.md, 'What "the refresh fails" means'):
 * - `renewed`: new tokens, Echo's answer or newer ones another tab had already;
 * - `refused`: Echo refused the refresh (a 4xx, or an answer without an access token), or the
 *   refresh token's own life is over: the session has ended;
 * - `unreachable`: Echo could not be reached (offline, a dropped connection, a 5xx or 429, no
 *   answer or no turn within the deadline): the session keeps its user and tries again;
 * - `outlived`: the user it was for is gone (signed out, or another user signed in meanwhile):
 *   nothing was stored or handed over.
 */
export type RefreshOutcome =
  | { kind: 'renewed'; user: StoredUser; from: 'echo' | 'tab' }
  | { kind: 'refused'; error: Error; cause: SignOutCause }
  | { kind: 'unreachable'; error: Error; cause: InterruptionCause }
  | { kind: 'outlived' }

/** What an attempt is run with: the session's environment, tabs, config and refresh turns. */
export interface RefreshAttemptParts {
  env: EchoEnvironment
  tabs: TabSync
  turns: RefreshTurns
  config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>
}

/** One attempt's request. */
export interface RefreshRequest {
  /** The user whose access token is being replaced. */
  from: StoredUser
  /** Aborts when `from` is no longer the session's user: the attempt then stores nothing. */
  userGone: AbortSignal
  /** Told how a grant that missed the deadline ended, if it ends within {@link LATE_ANSWER_MS}. */
  onLateOutcome: (outcome: RefreshOutcome) => void
}

/**
 * One refresh attempt, the whole of its life: it waits for its turn (this tab's earlier attempt,
 * then the cross-tab lock), takes newer tokens another tab already has, else spends the refresh
 * token at Echo, stores and hands over what comes back, and says how it ended. Echo rotates the
 * refresh token on every use and a spent one presented again can revoke the whole grant, hence the
 * turns and the hand-over (docs/session.md, "Tabs"). One deadline, {@link REFRESH_ATTEMPT_MS},
 * covers all of it; a grant still on its way then goes on in its turn, and its late outcome goes to
 * `onLateOutcome`.
 */
export async function attemptRefresh(
  { env, tabs, turns, config }: RefreshAttemptParts,
  { from, userGone, onLateOutcome }: RefreshRequest,
): Promise<RefreshOutcome> {
  const deadline = countdown(env, REFRESH_ATTEMPT_MS)
  const lateLimit = countdown(env, LATE_ANSWER_MS)
  let granted = false
  const timedOut = (): RefreshOutcome => {
    const waited = granted ? 'Echo did not answer the refresh' : "The refresh waited for its turn behind another tab's"
    const error = new Error(`${waited} for ${REFRESH_ATTEMPT_MS / 1000} seconds`)
    return { kind: 'unreachable', error, cause: { by: granted ? 'deadline' : 'turn' } }
  }
  const replacing = (user: StoredUser): StoredUser | null =>
    user.access_token !== from.access_token && expiresAtMs(user) > env.now() ? user : null
  const userKey = storedUserKey(config)
  // The newest tokens this tab knows: stored, handed over, or its own.
  const newestKnown = (): StoredUser =>
    newestUser([readStoredUser(env.storage, userKey), tabs.handedOver, from]) ?? from

  const inTurn = async (): Promise<RefreshOutcome> => {
    granted = true
    let newest = newestKnown()
    // The lock and another tab's hand-over reach this tab as separate tasks: the tab that just
    // rotated the tokens may have posted them a moment before this turn came.
    if (replacing(newest) === null && tabs.hasChannel) {
      await new Promise<void>((resolve) => env.setTimeout(resolve, HANDOVER_GRACE_MS))
      newest = newestKnown()
    }
    const taken = replacing(newest)
    if (taken !== null) return { kind: 'renewed', user: taken, from: 'tab' }
    if (userGone.aborted) return { kind: 'outlived' }
    const refreshToken = newest.refresh_token
    if (!refreshToken)
      return refused('There is no refresh token to renew the session with: sign in again', 'no-refresh-token')
    if ((refreshExpiresAtMs(newest) ?? Infinity) <= env.now())
      return refused('The refresh token has expired: sign in again', 'refresh-token-expired')
    const answer = await requestRefreshGrant(
      env.fetch,
      config,
      { ...newest, refresh_token: refreshToken },
      { now: env.now(), signal: lateLimit.signal },
    )
    if (userGone.aborted) return { kind: 'outlived' }
    if (answer.kind === 'tokens') {
      storeUser(env.storage, userKey, answer.user)
      tabs.tell({ type: 'tokens', user: toStorageString(answer.user) })
      return { kind: 'renewed', user: answer.user, from: 'echo' }
    }
    // Refused, yet another tab may have renewed meanwhile (this one presented a token it had spent).
    const other = answer.kind === 'refused' ? replacing(newestKnown()) : null
    return other !== null ? { kind: 'renewed', user: other, from: 'tab' } : answer
  }

  const turn = turns.take(env.locks, tabs.name, deadline.signal, inTurn).then(
    (outcome) => {
      lateLimit.clear()
      return outcome
    },
    (error: unknown): RefreshOutcome => {
      lateLimit.clear()
      // No turn before the deadline, or something broke in it (storage refusing a write, say).
      if (deadline.signal.aborted && !granted) return timedOut()
      const failure = error instanceof Error ? error : new Error(String(error))
      return { kind: 'unreachable', error: failure, cause: { by: 'error', message: causeText(failure.message) } }
    },
  )
  const outcome = await Promise.race([turn, deadline.reached])
  deadline.clear()
  if (outcome !== undefined) return outcome
  void turn.then(onLateOutcome)
  return timedOut()
}

/**
 * This tab's refresh turns, one after another: each runs after this tab's own earlier one (which may
 * still await a late answer) and under the cross-tab lock, so a refresh token is never spent twice.
 */
export class RefreshTurns {
  /** This tab's last turn, settled when its work is done. */
  #last: Promise<void> = Promise.resolve()

  /** Runs `work` in the next turn. `signal` gives up waiting for it; once `work` runs it runs to its end. */
  take<T>(locks: EchoEnvironment['locks'], name: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const previous = this.#last
    const mine = abortable(previous, signal).then(() => withCrossTabLock(locks, name, signal, work))
    // The next turn waits for this one's work, or, if this one gave up waiting, for the one before.
    this.#last = previous.then(() => mine).then(noop, noop)
    return mine
  }
}

/**
 * Runs `work` while holding the named Web Lock, so one tab at a time refreshes: Echo rotates the
 * refresh token on every use, and two tabs presenting the same one can revoke the whole grant.
 * `signal` gives up waiting for the lock (a tab that hangs while holding it must not hold the
 * others forever); once granted, the lock is held until `work` settles, whatever the signal does.
 * Without Web Locks (Node, jsdom, old browsers) it runs `work` at once: single-tab behaviour.
 */
export function withCrossTabLock<T>(
  locks: EchoEnvironment['locks'],
  name: string,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  if (locks === undefined) return work()
  return locks.request(name, { mode: 'exclusive', signal }, work) as Promise<T>
}

function noop(): void {}

function refused(message: string, by: 'no-refresh-token' | 'refresh-token-expired'): RefreshOutcome {
  return { kind: 'refused', error: new Error(message), cause: { by } }
}

/** A signal that aborts after `ms` on the environment's clock, and a promise of that moment (`undefined`). */
function countdown(env: Pick<EchoEnvironment, 'setTimeout' | 'clearTimeout'>, ms: number) {
  const controller = new AbortController()
  const handle = env.setTimeout(
    () => controller.abort(new DOMException(`No answer within ${ms} ms`, 'TimeoutError')),
    ms,
  )
  const reached = new Promise<undefined>((resolve) =>
    controller.signal.addEventListener('abort', () => resolve(undefined)),
  )
  return { signal: controller.signal, reached, clear: () => env.clearTimeout(handle) }
}

/** A user whose refresh token can be spent. */
export type RefreshableUser = StoredUser & { refresh_token: string }

/**
 * What Echo's token endpoint made of a refresh-token grant: new tokens; a refusal (a 4xx, or an
 * answer of Echo's without an access token), after which the session is over; or no answer from
 * Echo at all (offline, a dropped or refused connection, a 5xx or 429, a page that is not Echo's
 * JSON such as a captive portal's), after which the session tries again.
 */
export type GrantAnswer =
  | { kind: 'tokens'; user: StoredUser }
  | { kind: 'refused'; error: Error; cause: SignOutCause }
  | { kind: 'unreachable'; error: Error; cause: InterruptionCause }

/**
 * The refresh-token grant for `user` at Echo's token endpoint, sent through `fetch` (the session's
 * own, so tests and the environment see it) and given up when `signal` aborts. Never throws: every
 * way it can end is a {@link GrantAnswer}. The new user keeps the profile (Echo issues no id token)
 * and, if Echo sends none, the refresh token; `now` is the clock the expiry is counted from.
 */
export async function requestRefreshGrant(
  fetch: FetchFunction,
  config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>,
  user: RefreshableUser,
  { now, signal }: { now: number; signal: AbortSignal },
): Promise<GrantAnswer> {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: user.refresh_token,
    client_id: config.appId,
  })
  if (user.scope) form.set('scope', user.scope)
  const reading = await requestTokenGrant(fetch, config.apiUrl, form, { signal })
  return reading.kind === 'tokens' ? { kind: 'tokens', user: renewedUser(user, reading.answer, now) } : reading
}

/** The user after a refresh: Echo's new tokens, and what the answer leaves out carried over from `user`. */
function renewedUser(user: RefreshableUser, answer: Record<string, unknown>, now: number): StoredUser {
  const expiresIn = answer.expires_in
  const scope = text(answer.scope) ?? user.scope
  const renewed: StoredUser = {
    session_state: user.session_state,
    access_token: answer.access_token as string,
    refresh_token: text(answer.refresh_token) ?? user.refresh_token,
    token_type: text(answer.token_type) ?? 'Bearer',
    ...(scope === undefined ? {} : { scope }),
    profile: user.profile,
    // Whole seconds from the client's own clock, as oidc-client-ts counts them.
    ...(typeof expiresIn === 'number' && Number.isFinite(expiresIn)
      ? { expires_at: Math.floor(now / 1000) + expiresIn }
      : {}),
  }
  return withRefreshLife(renewed, answer.refresh_token_expires_in, now)
}
