import type { User } from 'oidc-client-ts'

import { createAuthorizedSend, type AuthorizedSend } from '../api/authorizedFetch'
import { RefreshCoordinator } from '../api/refreshCoordinator'
import type { ResolvedEchoConfig } from '../config'
import { EchoError } from '../errors'
import { takeCheckoutReturn } from './checkoutReturn'
import { EchoOidc } from './echoOidc'
import { AnnouncedUser } from './announcedUser'
import { PageLifetimeStorage, STORAGE_BLOCKED, type EchoEnvironment } from './environment'
import { RenewPlan } from './renewPlan'
import { SESSION_ENDED, type SessionReporter, type SignInOptions, type SignInSource } from './sessionReporter'
import { SessionRefresh } from './sessionRefresh'
import { takeSignInReturn } from './signInCallback'
import { expiresAtMs, isNewer, takeStoredUser } from './storedUser'
import { TabSync } from './tabSync'

/**
 * One store's OIDC session: who is signed in, kept in storage, renewed on time and in step with the
 * other tabs. It composes the sign-in coming back (`signInCallback`), when to renew
 * (`renewPlan`), the tabs (`tabSync`), what the store is told (`announcedUser`) and the refresh
 * (`sessionRefresh`); every refresh goes through its one `RefreshCoordinator`.
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
  readonly #refresh: SessionRefresh
  readonly #plan: RenewPlan
  #user: User | null = null
  readonly #announced: AnnouncedUser
  #started = false
  #stopWaking: (() => void) | undefined
  #callback: Promise<void> | undefined

  constructor(config: ResolvedEchoConfig, report: SessionReporter, env: EchoEnvironment) {
    this.config = config
    this.#env = env
    this.#report = report
    this.#announced = new AnnouncedUser(report)
    this.#oidc = new EchoOidc(config, env.storage)
    this.#tabs = new TabSync(config, env)
    this.#plan = new RenewPlan(env, () => this.#renewInBackground())
    this.#refresh = new SessionRefresh(
      { config, env, tabs: this.#tabs, report, announced: this.#announced, plan: this.#plan },
      { user: () => this.#user, adopt: (user, arrivedBy) => this.#adopt(user, arrivedBy), forget: () => this.#forget({ removeStored: true }), scheduleRenew: () => this.#scheduleRenew() },
    )
    // Each attempt keeps its own deadline (refreshAttempt.ts), so the coordinator adds none.
    const tokens = { getAccessToken: () => Promise.resolve(this.#user?.access_token ?? null), refreshToken: () => this.#refresh.renew() }
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
    this.#stopWaking = this.#env.onWake(() => this.#plan.isReconnecting && this.#renewInBackground())
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
    this.#plan.pause()
    this.#stopWaking?.()
    this.#stopWaking = undefined
  }

  /** Leaves for Echo's sign-in page (authorization code + PKCE). Rejects with an `EchoError` if it cannot. */
  async signIn({ navigate = (url) => this.#env.navigate(url) }: SignInOptions = {}): Promise<void> {
    this.#announced.signInStarted()
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
    const endsOutage = this.#plan.renewed(user)
    this.#user = user
    this.#announced.signedIn(user, arrivedBy)
    this.#scheduleRenew()
    // What failed while Echo was out of reach is asked for again.
    if (endsOutage) this.#report.balanceChanged()
  }

  #scheduleRenew(): void {
    this.#plan.schedule(this.#tabs.isListening ? this.#user : null)
  }

  /** A refresh nobody waits for (the timer, the backoff, start-up): its outcome is acted on in `SessionRefresh`. */
  #renewInBackground(): void {
    this.coordinator.refreshToken().catch(() => undefined)
  }

  async #forget({ removeStored = false } = {}): Promise<void> {
    this.#announced.forget()
    this.#user = null
    this.#tabs.forget()
    this.#plan.reset()
    if (removeStored) await this.#oidc.forgetStored()
  }

  /** Another tab signed in, refreshed (storage, or a hand-over) or signed out. */
  #fromTab(user: User | null): void {
    if (user !== null) return void (!this.#isExpired(user) && isNewer(user, this.#user) && this.#adopt(user, 'tab'))
    if (this.#user === null) return
    void this.#forget()
    this.#announced.signedOutByTab()
  }

  /** Another tab's refresh was refused: the session has ended, and says so here too, whichever signal came first. */
  #endedElsewhere(): void {
    if (this.#user !== null) return void this.#forget().then(() => this.#report.signedOut(SESSION_ENDED))
    this.#announced.endedAfterTabSignOut()
  }

  #isExpired(user: User): boolean {
    return expiresAtMs(user) <= this.#env.now()
  }
}
