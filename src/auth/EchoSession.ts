import type { User } from 'oidc-client-ts'

import { createAuthorizedSend, type AuthorizedSend } from '../api/authorizedFetch'
import { RefreshCoordinator } from '../api/refreshCoordinator'
import type { ResolvedEchoConfig } from '../config'
import { EchoError } from '../errors'
import { takeCheckoutReturn } from './checkoutReturn'
import { EchoOidc } from './echoOidc'
import { toEchoUser } from './echoUser'
import { PageLifetimeStorage, STORAGE_BLOCKED, type EchoEnvironment } from './environment'
import { RenewTimer } from './renewSchedule'
import { SESSION_ENDED, type SessionReporter, type SignInOptions, type SignInSource } from './sessionReporter'
import { takeSignInReturn } from './signInCallback'
import { expiresAtMs, isNewer, takeStoredUser } from './storedUser'
import { SESSION_ENDED_DURING_REFRESH, TabSync } from './tabSync'

/**
 * One store's OIDC session: who is signed in, kept in storage, renewed on time and in step with the
 * other tabs. It composes the sign-in coming back (`signInCallback`), the renew timer
 * (`renewSchedule`), the tabs (`tabSync`) and the OAuth steps (`echoOidc`); every refresh goes
 * through its one `RefreshCoordinator`.
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
  readonly #timer: RenewTimer
  #user: User | null = null
  #lifetimeMs = 0
  /** The user id the store was last told is signed in. */
  #announcedUserId: string | null = null
  /** Bumped at every sign-out and change of user: a refresh that began before must not outlive them. */
  #generation = 0
  #started = false
  #callback: Promise<void> | undefined

  constructor(config: ResolvedEchoConfig, report: SessionReporter, env: EchoEnvironment) {
    this.config = config
    this.#env = env
    this.#report = report
    this.#oidc = new EchoOidc(config, env.storage)
    this.#tabs = new TabSync(config, env)
    this.#timer = new RenewTimer(env)
    this.coordinator = new RefreshCoordinator({
      getAccessToken: () => Promise.resolve(this.#user?.access_token ?? null),
      refreshToken: () => this.#renew(),
      onRefreshError: (error) => void this.#refreshFailed(error),
    })
    this.sendAuthorized = createAuthorizedSend({ tokenProvider: this.coordinator, fetch: env.fetch })
  }

  /** Resolves when a sign-in coming back in the address bar has been completed (or has failed). */
  get signInCallback(): Promise<void> {
    return this.#callback ?? Promise.resolve()
  }

  /** Listens to the other tabs, arms the renew timer, and the first time takes the page's sign-in, checkout or stored user; again after `stop()` (StrictMode), nothing twice. */
  start(): void {
    if (this.#tabs.isListening) return
    this.#tabs.listen({
      storedUserChanged: (user) => this.#fromTab(user),
      handedOver: (user) => this.#user !== null && this.#fromTab(user),
      ended: () => this.#user !== null && void this.#forget().then(() => this.#report.signedOut(SESSION_ENDED)),
      balanceChanged: () => this.#report.balanceChanged(),
    })
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

  /** Stops listening and the renew timer; the session keeps its user and can start again. */
  stop(): void {
    this.#tabs.stop()
    this.#timer.cancel()
  }

  /** Leaves for Echo's sign-in page (authorization code + PKCE). Rejects with an `EchoError` if it cannot. */
  async signIn({ navigate = (url) => this.#env.navigate(url) }: SignInOptions = {}): Promise<void> {
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

  /** The access token, refreshed first through the coordinator if it has expired; `null` when signed out. */
  async getToken(): Promise<string | null> {
    const user = this.#user
    if (user === null || !this.#isExpired(user)) return user?.access_token ?? null
    return this.coordinator.tokenAfter(user.access_token).catch(() => null)
  }

  /** Start-up: a saved user that is still valid is signed in at once; an expired one gets one renew. */
  #restore(): void {
    const stored = takeStoredUser(this.#env, this.config)
    if (stored === null) return this.#report.signedOut()
    if (!this.#isExpired(stored)) return this.#adopt(stored, 'storage')
    this.#user = stored
    // A failure is handled by the coordinator's onRefreshError: logged, cleaned up, signed out.
    this.coordinator.refreshToken().catch(() => undefined)
  }

  /** Makes `user` the session's user and tells the store: signed in if it is new, refreshed if not. */
  #adopt(user: User, arrivedBy: SignInSource): void {
    const expiresAt = expiresAtMs(user)
    this.#user = user
    this.#lifetimeMs = Math.max(expiresAt - this.#env.now(), 0)
    const echoUser = toEchoUser(user.profile)
    if (this.#announcedUserId === echoUser.id) {
      this.#report.tokenRefreshed({ accessToken: user.access_token, expiresAt })
    } else {
      this.#generation += 1
      this.#announcedUserId = echoUser.id
      this.#report.signedIn({ user: echoUser, accessToken: user.access_token, expiresAt, arrivedBy })
    }
    this.#scheduleRenew()
  }

  #scheduleRenew(): void {
    const user = this.#user
    if (user === null || !this.#tabs.isListening) return this.#timer.cancel()
    this.#timer.schedule(expiresAtMs(user), this.#lifetimeMs, () => void this.coordinator.refreshToken().catch(() => undefined))
  }

  /** The refresh itself, run by the coordinator: one at a time in this tab, and across tabs under a lock. */
  async #renew(): Promise<string> {
    const generation = this.#generation
    this.#report.tokenRefreshStarted()
    // Signed out, or another user signed in, while it ran: its outcome is not this session's any more.
    const isCurrent = () => generation === this.#generation
    const renewed = await this.#tabs.renew(this.#user, () => this.#user, (user) => this.#oidc.refresh(user), isCurrent)
    this.#adopt(renewed, this.#announcedUserId === null ? 'storage' : 'tab')
    return renewed.access_token
  }

  /** DESIGN §2: log, remove the stored user and stale state, sign out, and say the session ended (here and in the other tabs). */
  async #refreshFailed(error: Error): Promise<void> {
    // A refresh that outlived its session (see #renew): nothing more has ended.
    if (error.message === SESSION_ENDED_DURING_REFRESH || this.#user === null) return
    this.#env.logError('Token refresh failed:', error)
    // Another tab renewed meanwhile (this one timed out waiting its turn): the session goes on.
    const newest = this.#tabs.newest(this.#user)
    if (newest !== null && !this.#isExpired(newest) && isNewer(newest, this.#user)) return this.#adopt(newest, 'tab')
    this.#tabs.tell({ type: 'ended' })
    await this.#forget({ removeStored: true })
    this.#report.signedOut(SESSION_ENDED)
  }

  async #forget({ removeStored = false } = {}): Promise<void> {
    this.#generation += 1
    this.#user = null
    this.#announcedUserId = null
    this.#tabs.forget()
    this.#timer.cancel()
    if (removeStored) await this.#oidc.forgetStored()
  }

  /** Another tab signed in, refreshed (storage, or a hand-over) or signed out. */
  #fromTab(user: User | null): void {
    if (user !== null) return void (!this.#isExpired(user) && isNewer(user, this.#user) && this.#adopt(user, 'tab'))
    if (this.#user === null) return
    void this.#forget()
    this.#report.signedOut()
  }

  #isExpired(user: User): boolean {
    return expiresAtMs(user) <= this.#env.now()
  }
}
