import type { User } from 'oidc-client-ts'

import type { ResolvedEchoConfig } from '../config'
import { EchoError } from '../errors'
import type { AnnouncedUser } from './announcedUser'
import type { EchoEnvironment } from './environment'
import { attemptRefresh, type RefreshOutcome } from './refreshAttempt'
import type { RenewPlan } from './renewPlan'
import { RECONNECTING, REFRESH_OUTLIVED, SESSION_ENDED, type SessionReporter, type SignInSource } from './sessionReporter'
import type { TabSync } from './tabSync'

/** The parts of a session a refresh works with. */
export interface SessionRefreshParts {
  config: ResolvedEchoConfig
  env: EchoEnvironment
  tabs: TabSync
  report: SessionReporter
  announced: AnnouncedUser
  plan: RenewPlan
}

/** What a refresh asks of the session it renews. */
export interface RefreshedSession {
  user(): User | null
  adopt(user: User, arrivedBy: SignInSource): void
  /** Forgets the user here and in storage. */
  forget(): Promise<void>
  scheduleRenew(): void
}

/**
 * A session's refresh, as its coordinator runs it: one attempt (refreshAttempt.ts), then what the
 * outcome means (DESIGN §2). New tokens are adopted; Echo out of reach keeps the user and tries
 * again; Echo's refusal ends the session, in every tab.
 */
export class SessionRefresh {
  readonly #parts: SessionRefreshParts
  readonly #session: RefreshedSession

  constructor(parts: SessionRefreshParts, session: RefreshedSession) {
    this.#parts = parts
    this.#session = session
  }

  /** Resolves to the new access token, or rejects with why there is none. */
  async renew(): Promise<string> {
    const from = this.#session.user()
    if (from === null) throw new Error(REFRESH_OUTLIVED)
    const { announced, report, env, tabs, config } = this.#parts
    const userGone = announced.userGone
    report.tokenRefreshStarted()
    const onLateOutcome = (late: RefreshOutcome) => {
      // Late tokens are taken, a late refusal ends the session; a late failure to reach Echo adds nothing.
      if (late.kind !== 'unreachable') this.#settle(late, userGone).catch(() => undefined)
    }
    return this.#settle(await attemptRefresh({ env, tabs, config }, { from, userGone, onLateOutcome }), userGone)
  }

  async #settle(outcome: RefreshOutcome, userGone: AbortSignal): Promise<string> {
    if (userGone.aborted || outcome.kind === 'outlived') throw new Error(REFRESH_OUTLIVED)
    if (outcome.kind === 'renewed') {
      this.#session.adopt(outcome.user, this.#parts.announced.hasUser ? 'tab' : 'storage')
      return outcome.user.access_token
    }
    if (outcome.kind === 'unreachable') throw this.#interrupted(outcome.error)
    // Refused: SPEC §4 logs it, removes the stored user and stale state, and signs out, in every tab.
    this.#parts.env.logError('Token refresh failed:', outcome.error)
    this.#parts.tabs.tell({ type: 'ended' })
    await this.#session.forget()
    this.#parts.report.signedOut(SESSION_ENDED)
    throw outcome.error
  }

  /** Echo could not be reached: the user stays signed in (a stored one too), and the session tries again. */
  #interrupted(cause: Error): EchoError {
    const { announced, plan, tabs, env, report } = this.#parts
    const user = this.#session.user()
    if (!announced.hasUser && user !== null) announced.signedIn(user, 'storage')
    // A stopped session (its provider unmounted) keeps the count for a restart, and says nothing.
    if (plan.failed() && tabs.isListening) env.logWarning(`echo-rtk: ${RECONNECTING} (${cause.message})`)
    this.#session.scheduleRenew()
    report.tokenRefreshInterrupted()
    return new EchoError({ code: 'NETWORK_ERROR', reason: 'echo-unreachable', message: RECONNECTING, cause })
  }
}
