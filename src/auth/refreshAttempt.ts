import type { User } from 'oidc-client-ts'

import type { ResolvedEchoConfig } from '../config'
import type { EchoEnvironment } from './environment'
import { requestRefreshGrant } from './refreshGrant'
import { expiresAtMs, refreshExpiresAtMs } from './storedUser'
import type { TabSync } from './tabSync'

/** SPEC §9: one refresh attempt, from asking for its turn to Echo's answer, has 10 seconds. */
export const REFRESH_ATTEMPT_MS = 10_000

/**
 * How long a refresh-token grant that missed its attempt's deadline is still waited for. Echo has
 * rotated the refresh token by the time it answers, so a late answer is the session's only way on:
 * it is adopted if it comes. Past this the request is given up and the turn freed.
 */
export const LATE_ANSWER_MS = 60_000

/**
 * How a refresh attempt ended (DESIGN §2, "What 'the refresh fails' means"):
 * - `renewed`: new tokens, Echo's answer or newer ones another tab had already;
 * - `refused`: Echo refused the refresh (a 4xx, or an answer without an access token), or the
 *   refresh token's own life is over: the session has ended;
 * - `unreachable`: Echo could not be reached (offline, a dropped connection, a 5xx or 429, no
 *   answer or no turn within the deadline): the session keeps its user and tries again;
 * - `outlived`: the user it was for is gone (signed out, or another user signed in meanwhile):
 *   nothing was stored or handed over.
 */
export type RefreshOutcome = { kind: 'renewed'; user: User } | { kind: 'refused'; error: Error } | { kind: 'unreachable'; error: Error } | { kind: 'outlived' }

/** What an attempt is run with: the session's environment, tabs and config. */
export interface RefreshAttemptParts {
  env: EchoEnvironment
  tabs: TabSync
  config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>
}

/** One attempt's request. */
export interface RefreshRequest {
  /** The user whose access token is being replaced. */
  from: User
  /** Aborts when `from` is no longer the session's user: the attempt then stores nothing. */
  userGone: AbortSignal
  /** Told how a grant that missed the deadline ended, if it ends within {@link LATE_ANSWER_MS}. */
  onLateOutcome: (outcome: RefreshOutcome) => void
}

/**
 * One refresh attempt, the whole of its life: it waits for its turn (this tab's earlier attempt,
 * then the cross-tab lock), takes newer tokens another tab already has, else spends the refresh
 * token at Echo, stores and hands over what comes back, and says how it ended. One deadline,
 * {@link REFRESH_ATTEMPT_MS}, covers all of it; a grant still on its way then goes on in its turn,
 * and its late outcome goes to `onLateOutcome`.
 */
export async function attemptRefresh({ env, tabs, config }: RefreshAttemptParts, { from, userGone, onLateOutcome }: RefreshRequest): Promise<RefreshOutcome> {
  const deadline = countdown(env, REFRESH_ATTEMPT_MS)
  const lateLimit = countdown(env, LATE_ANSWER_MS)
  let granted = false
  const timedOut = (): RefreshOutcome => {
    const waited = granted ? 'Echo did not answer the refresh' : "The refresh waited for its turn behind another tab's"
    return { kind: 'unreachable', error: new Error(`${waited} for ${REFRESH_ATTEMPT_MS / 1000} seconds`) }
  }
  const replacing = (user: User | null): User | null => (user !== null && user.access_token !== from.access_token && expiresAtMs(user) > env.now() ? user : null)

  const inTurn = async (): Promise<RefreshOutcome> => {
    granted = true
    let newest = tabs.newest(from)
    if (replacing(newest) === null) {
      await tabs.awaitHandOver()
      newest = tabs.newest(from)
    }
    const taken = replacing(newest)
    if (taken !== null) return { kind: 'renewed', user: taken }
    if (userGone.aborted) return { kind: 'outlived' }
    const refreshToken = newest?.refresh_token
    if (newest === null || !refreshToken) return refused('There is no refresh token to renew the session with: sign in again')
    if ((refreshExpiresAtMs(newest) ?? Infinity) <= env.now()) return refused('The refresh token has expired: sign in again')
    const answer = await requestRefreshGrant(env.fetch, config, Object.assign(newest, { refresh_token: refreshToken }), { now: env.now(), signal: lateLimit.signal })
    if (userGone.aborted) return { kind: 'outlived' }
    if (answer.kind === 'tokens') {
      tabs.share(answer.user)
      return { kind: 'renewed', user: answer.user }
    }
    // Refused, yet another tab may have renewed meanwhile (this one presented a token it had spent).
    const other = answer.kind === 'refused' ? replacing(tabs.newest(from)) : null
    return other !== null ? { kind: 'renewed', user: other } : answer
  }

  const turn = tabs.inTurn(deadline.signal, inTurn).then(
    (outcome) => {
      lateLimit.clear()
      return outcome
    },
    (error: unknown): RefreshOutcome => {
      lateLimit.clear()
      // No turn before the deadline, or something broke in it (storage refusing a write, say).
      return deadline.signal.aborted && !granted ? timedOut() : { kind: 'unreachable', error: error instanceof Error ? error : new Error(String(error)) }
    },
  )
  const outcome = await Promise.race([turn, deadline.reached])
  deadline.clear()
  if (outcome !== undefined) return outcome
  void turn.then(onLateOutcome)
  return timedOut()
}

function refused(message: string): RefreshOutcome {
  return { kind: 'refused', error: new Error(message) }
}

/** A signal that aborts after `ms` on the environment's clock, and a promise of that moment (`undefined`). */
function countdown(env: Pick<EchoEnvironment, 'setTimeout' | 'clearTimeout'>, ms: number) {
  const controller = new AbortController()
  const handle = env.setTimeout(() => controller.abort(new DOMException(`No answer within ${ms} ms`, 'TimeoutError')), ms)
  const reached = new Promise<undefined>((resolve) => controller.signal.addEventListener('abort', () => resolve(undefined), { once: true }))
  return { signal: controller.signal, reached, clear: () => env.clearTimeout(handle) }
}
