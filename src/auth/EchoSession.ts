import type { User } from 'oidc-client-ts'

import { createAuthorizedSend, type AuthorizedSend } from '../api/authorizedFetch'
import { RefreshCoordinator } from '../api/refreshCoordinator'
import type { ResolvedEchoConfig } from '../config'
import { EchoError } from '../errors'
import { takeCheckoutReturn } from './checkoutReturn'
import { EchoOidc } from './echoOidc'
import { toEchoUser } from './echoUser'
import { PageLifetimeStorage, STORAGE_BLOCKED, type EchoEnvironment } from './environment'
import { ReconnectSchedule } from './reconnectSchedule'
import { attemptRefresh, type RefreshAttemptParts, type RefreshOutcome } from './refreshAttempt'
import { RenewTimer } from './renewSchedule'
import { RECONNECTING, REFRESH_OUTLIVED, SESSION_ENDED, type SessionReporter, type SignInOptions, type SignInSource } from './sessionReporter'
import { takeSignInReturn } from './signInCallback'
import { expiresAtMs, isNewer, takeStoredUser } from './storedUser'
import { TabSync } from './tabSync'

/**
 * One store's OIDC session: who is signed in, kept in storage, renewed on time and in step with the
 * other tabs. It composes the sign-in coming back (`signInCallback`), the renew timer
 * (`renewSchedule`), the tabs (`tabSync`), one refresh attempt's life (`refreshAttempt`) and the
 * way back after Echo could not be reached (`reconnectSchedule`); every refresh goes through its
 * one `RefreshCoordinator`.
 */
export class EchoSession {
  readonly config: ResolvedEchoConfig
  readonly coordinator: RefreshCoordinator
  /** The authorized fetch of this session, for the RTK Query baseQuery and the model calls. */
  readonly sendAuthorized: AuthorizedSend
  readonly #env: EchoEnvironment
  readonly #report: SessionReporter
  readonly #oidc: EchoOidc
  readonly #tabs: TabSync
  readonly #attemptParts: RefreshAttemptParts
  readonly #timer: RenewTimer
  readonly #reconnect: ReconnectSchedule
  #user: User | null = null
  #lifetimeMs = 0
  /** The user id the store was last told is signed in. */
  #announcedUserId: string | null = null
  /** Aborted when the session's user is gone (a sign-out, another user): a refresh begun for them must not outlive them. */
  #userScope = new AbortController()
  /** Another tab's storage signed this one out: the message that the session ended may still come on the channel. */
  #signedOutByTab = false
  #started = false
  #stopWaking: (() => void) | undefined
  #callback: Promise<void> | undefined

  constructor(config: ResolvedEchoConfig, report: SessionReporter, env: EchoEnvironment) {
    this.config = config
    this.#env = env
    this.#report = report
    this.#oidc = new EchoOidc(config, env.storage)
    this.#tabs = new TabSync(config, env)
    this.#attemptParts = { env, tabs: this.#tabs, config }
    this.#timer = new RenewTimer(env)
    this.#reconnect = new ReconnectSchedule(env, () => this.#renewInBackground())
    // Each attempt keeps its own deadline (refreshAttempt.ts), so the coordinator adds none.
    const tokens = { getAccessToken: () => Promise.resolve(this.#user?.access_token ?? null), refreshToken: () => this.#renew() }
    this.coordinator = new RefreshCoordinator(tokens, { refreshTimeoutMs: Infinity })
    this.sendAuthorized = createAuthorizedSend({ tokenProvider: this.coordinator, fetch: env.fetch })
  }

  /** Resolves when a sign-in coming back in the address bar has been completed (or has failed). */
  get signInCallback(): Promise<void> {
    return this.#callback ?? Promise.resolve()
  }

  /** Listens to the other tabs and the network, arms the renew timer, and the first time takes the page's sign-in, checkout or stored user; again after `stop()` (StrictMode), nothing twice. */
  start(): void {
    if (this.#tabs.isListening) return
    this.#tabs.listen({
      storedUserChanged: (user) => this.#fromTab(user),
      handedOver: (user) => this.#user !== null && this.#fromTab(user),
      ended: () => this.#endedElsewhere(),
      balanceChanged: () => this.#report.balanceChanged(),
    })
    // Back online, or the page shown again: a session that could not reach Echo tries at once.
    this.#stopWaking = this.#env.onWake(() => this.#reconnect.isReconnecting && this.#renewInBackground())
    if (this.#started) return this.#scheduleRenew()
    this.#started = true
    const signInReturn = takeSignInReturn(this.#env, this.#oidc, this.config)
    if (signInReturn === null) this.#restore()
    else if (signInReturn.kind === 'refused') this.#report.signInFailed(signInReturn.error, 'callback')
    else {
      this.#report.signInStarted()
      this.#callback = signInReturn.user.then(
        (user) => this.#adopt(user, 'callback'),
        (error: unknown) => this.#report.signInFailed(EchoError.from(error).toJSON(), 'callback'),
      )
    }
    takeCheckoutReturn(this.#env, () => {
      this.#tabs.tell({ type: 'balance' })
      this.#report.balanceChanged()
    })
  }

  /** Stops listening and every timer; the session keeps its user (and an outage's count) and can start again. */
  stop(): void {
    this.#tabs.stop()
    this.#timer.cancel()
    this.#reconnect.pause()
    this.#stopWaking?.()
    this.#stopWaking = undefined
  }

  /** Leaves for Echo's sign-in page (authorization code + PKCE). Rejects with an `EchoError` if it cannot. */
  async signIn({ navigate = (url) => this.#env.navigate(url) }: SignInOptions = {}): Promise<void> {
    this.#signedOutByTab = false
    this.#report.signInStarted()
    try {
      if (this.#env.storage instanceof PageLifetimeStorage) throw new Error(STORAGE_BLOCKED) // PKCE needs storage that outlives the page
      navigate(await this.#oidc.signInUrl())
    } catch (error) {
      const failure = EchoError.from(error, 'starting sign-in')
      this.#report.signInFailed(failure.toJSON())
      throw failure
    }
  }

  /** Forgets the user in this tab and, through storage, in the others. */
  async signOut(): Promise<void> {
    await this.#forget({ removeStored: true })
    this.#report.signedOut()
  }

  /**
   * The access token, refreshed first through the coordinator if it has expired; `null` when
   * nobody is signed in (or the refresh was refused: the session has ended). Rejects with a
   * `NETWORK_ERROR` while Echo cannot be reached.
   */
  async getToken(): Promise<string | null> {
    const user = this.#user
    if (user === null || !this.#isExpired(user)) return user?.access_token ?? null
    return this.coordinator.tokenAfter(user.access_token).catch((error: unknown) => {
      if (error instanceof EchoError && error.code === 'NETWORK_ERROR') throw error
      return null
    })
  }

  /** Start-up: a saved user that is still valid is signed in at once; an expired one gets one renew. */
  #restore(): void {
    const stored = takeStoredUser(this.#env, this.config)
    if (stored === null) return this.#report.signedOut()
    if (!this.#isExpired(stored)) return this.#adopt(stored, 'storage')
    this.#user = stored
    this.#renewInBackground()
  }

  /** Makes `user` the session's user and tells the store: signed in if it is new, refreshed if not. New tokens end an outage. */
  #adopt(user: User, arrivedBy: SignInSource): void {
    const endsOutage = this.#reconnect.isReconnecting
    this.#reconnect.reset()
    this.#user = user
    this.#lifetimeMs = Math.max(expiresAtMs(user) - this.#env.now(), 0)
    this.#announce(user, arrivedBy)
    this.#scheduleRenew()
    // What failed while Echo was out of reach is asked for again.
    if (endsOutage) this.#report.balanceChanged()
  }

  #announce(user: User, arrivedBy: SignInSource): void {
    const expiresAt = expiresAtMs(user)
    const echoUser = toEchoUser(user.profile)
    this.#signedOutByTab = false
    if (this.#announcedUserId === echoUser.id) return this.#report.tokenRefreshed({ accessToken: user.access_token, expiresAt })
    if (this.#announcedUserId !== null) this.#newUserScope()
    this.#announcedUserId = echoUser.id
    this.#report.signedIn({ user: echoUser, accessToken: user.access_token, expiresAt, arrivedBy })
  }

  #scheduleRenew(): void {
    const user = this.#user
    if (user === null || !this.#tabs.isListening) return this.#timer.cancel()
    if (this.#reconnect.isReconnecting) {
      // The backoff, not the token's renew time, says when to try again.
      this.#timer.cancel()
      return this.#reconnect.resume()
    }
    this.#timer.schedule(expiresAtMs(user), this.#lifetimeMs, () => this.#renewInBackground())
  }

  /** A refresh nobody waits for (the timer, the backoff, start-up): its outcome is acted on in `#settle`. */
  #renewInBackground(): void {
    this.coordinator.refreshToken().catch(() => undefined)
  }

  /** The refresh itself, run by the coordinator: one attempt (refreshAttempt.ts), then what its outcome means here. */
  async #renew(): Promise<string> {
    const from = this.#user
    if (from === null) throw new Error(REFRESH_OUTLIVED)
    const userGone = this.#userScope.signal
    this.#report.tokenRefreshStarted()
    const onLateOutcome = (late: RefreshOutcome) => {
      // Late tokens are taken, a late refusal ends the session; a late failure to reach Echo adds nothing.
      if (late.kind !== 'unreachable') this.#settle(late, userGone).catch(() => undefined)
    }
    return this.#settle(await attemptRefresh(this.#attemptParts, { from, userGone, onLateOutcome }), userGone)
  }

  /** Acts on how an attempt ended (DESIGN §2): resolves to the new token, or rejects with why there is none. */
  async #settle(outcome: RefreshOutcome, userGone: AbortSignal): Promise<string> {
    if (userGone.aborted || outcome.kind === 'outlived') throw new Error(REFRESH_OUTLIVED)
    if (outcome.kind === 'renewed') {
      this.#adopt(outcome.user, this.#announcedUserId === null ? 'storage' : 'tab')
      return outcome.user.access_token
    }
    if (outcome.kind === 'unreachable') throw this.#interrupted(outcome.error)
    // Refused: SPEC §4 logs it, removes the stored user and stale state, and signs out, in every tab.
    this.#env.logError('Token refresh failed:', outcome.error)
    this.#tabs.tell({ type: 'ended' })
    await this.#forget({ removeStored: true })
    this.#report.signedOut(SESSION_ENDED)
    throw outcome.error
  }

  /** Echo could not be reached: the user stays signed in (a stored one too), and the session tries again. */
  #interrupted(cause: Error): EchoError {
    if (this.#announcedUserId === null && this.#user !== null) this.#announce(this.#user, 'storage')
    const beganOutage = this.#reconnect.failed()
    // A stopped session (its provider unmounted) keeps the count for a restart, and says nothing.
    if (beganOutage && this.#tabs.isListening) this.#env.logWarning(`echo-rtk: ${RECONNECTING} (${cause.message})`)
    this.#scheduleRenew()
    this.#report.tokenRefreshInterrupted()
    return new EchoError({ code: 'NETWORK_ERROR', reason: 'echo-unreachable', message: RECONNECTING, cause })
  }

  async #forget({ removeStored = false } = {}): Promise<void> {
    this.#newUserScope()
    this.#user = null
    this.#announcedUserId = null
    this.#signedOutByTab = false
    this.#tabs.forget()
    this.#timer.cancel()
    this.#reconnect.reset()
    if (removeStored) await this.#oidc.forgetStored()
  }

  #newUserScope(): void {
    this.#userScope.abort()
    this.#userScope = new AbortController()
  }

  /** Another tab signed in, refreshed (storage, or a hand-over) or signed out. */
  #fromTab(user: User | null): void {
    if (user !== null) return void (!this.#isExpired(user) && isNewer(user, this.#user) && this.#adopt(user, 'tab'))
    if (this.#user === null) return
    void this.#forget()
    this.#signedOutByTab = true
    this.#report.signedOut()
  }

  /** Another tab's refresh was refused: the session has ended, and says so here too, whichever signal came first. */
  #endedElsewhere(): void {
    if (this.#user !== null) return void this.#forget().then(() => this.#report.signedOut(SESSION_ENDED))
    if (!this.#signedOutByTab) return
    this.#signedOutByTab = false
    this.#report.signedOut(SESSION_ENDED)
  }

  #isExpired(user: User): boolean {
    return expiresAtMs(user) <= this.#env.now()
  }
}
