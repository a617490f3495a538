import { UserManager, type User } from 'oidc-client-ts'

import { createAuthorizedSend, type AuthorizedSend } from '../api/authorizedFetch'
import { RefreshCoordinator } from '../api/refreshCoordinator'
import type { ResolvedEchoConfig } from '../config'
import { EchoError, type EchoErrorData } from '../errors'
import { readTopUpReturn } from '../api/paymentLinks'
import { readSignInCallback, withoutSignInParams } from './callbackUrl'
import { withCrossTabLock } from './crossTabLock'
import { toEchoUser, type EchoUser } from './echoUser'
import { tokenFreeError } from './tokenFreeError'
import type { EchoEnvironment } from './environment'
import { oidcSettings, storedUserKey } from './oidcSettings'
import { redirectNavigator } from './redirectNavigator'
import { isRenewDue, renewAtMs, renewTimerDelayMs } from './renewSchedule'
import { expiresAtMs, isNewer, isOwnSignInState, newestUser, otherStoredUserKeys, readStoredUser, removeSignInStates, userFromStorageString } from './storedUser'
import { fetchUserInfo } from './userInfo'

/** Options of a sign-in. */
export interface SignInOptions {
  /** Leaves for Echo's sign-in page at `url` instead of `window.location.assign(url)`. */
  navigate?: ((url: string) => void) | undefined
}

/** What the store is told when someone is signed in. */
export interface SessionSnapshot {
  user: EchoUser
  accessToken: string
  /** Epoch milliseconds. */
  expiresAt: number
}

/** How the session tells its store what happened; the store's middleware turns these into actions. */
export interface SessionReporter {
  signInStarted(): void
  signedIn(snapshot: SessionSnapshot): void
  signInFailed(error: EchoErrorData): void
  tokenRefreshStarted(): void
  tokenRefreshed(token: { accessToken: string; expiresAt: number }): void
  /** `ended` when the session ended on its own (its refresh failed), not by the user's choice. */
  signedOut(ended?: EchoErrorData): void
  /** Credits were bought (in this tab or another): the balance is stale. */
  balanceChanged(): void
}

/** How long a tab holding the refresh lock waits for another tab's hand-over before refreshing itself. */
const HANDOVER_GRACE_MS = 150

/** What the store is told when a session ends on its own: its refresh failed (SPEC §4 signs the user out). */
export const SESSION_ENDED: EchoErrorData = { code: 'UNKNOWN_ERROR', message: 'Your session has ended. Sign in again.' }

/** What tabs say to each other on the session's BroadcastChannel: rotated tokens, the session's end, credits bought. */
type TabMessage = { type: 'tokens'; user: string } | { type: 'ended' } | { type: 'balance' }

/**
 * One store's OIDC session over oidc-client-ts: sign-in redirect with PKCE, the callback completed
 * once, start-up restore, the profile, the renew timer, cross-tab hand-over, and sign-out. Every
 * refresh goes through its one `RefreshCoordinator`.
 */
export class EchoSession {
  readonly config: ResolvedEchoConfig
  /** The authorized fetch of this session, for the RTK Query baseQuery and the router. */
  readonly sendAuthorized: AuthorizedSend
  readonly coordinator: RefreshCoordinator
  /** The plain `fetch` of the session's environment, for callers that add their own authorization. */
  readonly fetch: EchoEnvironment['fetch']
  readonly #env: EchoEnvironment
  readonly #report: SessionReporter
  readonly #userManager: UserManager
  readonly #userKey: string
  readonly #lockName: string
  #user: User | null = null
  #lifetimeMs = 0
  /** The user id the store was last told is signed in. */
  #announcedUserId: string | null = null
  /** The newest tokens another tab handed over on the channel. */
  #handedOver: User | null = null
  /** Bumped at every sign-out: a refresh that began before it must not bring the user back. */
  #generation = 0
  #initialized = false
  #renewTimer: unknown
  #channel: BroadcastChannel | undefined
  #teardown: (() => void)[] = []
  #callback: Promise<void> | undefined
  #callbackSeen = false
  /** Where this sign-in leaves for Echo's page, when the caller says (a test, a router). */
  #leaveFor: ((url: string) => void) | undefined
  readonly #memo = new Map<symbol, unknown>()
  readonly #stopHooks: (() => void)[] = []

  constructor(config: ResolvedEchoConfig, report: SessionReporter, env: EchoEnvironment) {
    this.config = config
    this.#env = env
    this.#report = report
    this.#userKey = storedUserKey(config)
    this.#lockName = `echo-rtk:refresh:${config.apiUrl}:${config.appId}`
    this.#userManager = new UserManager(oidcSettings(config, env.storage), redirectNavigator((url) => (this.#leaveFor ?? env.navigate)(url)))
    this.coordinator = new RefreshCoordinator({
      getAccessToken: () => Promise.resolve(this.#user?.access_token ?? null),
      refreshToken: () => this.#renew(),
      onRefreshError: (error) => void this.#refreshFailed(error),
    })
    this.fetch = env.fetch
    this.sendAuthorized = createAuthorizedSend({ tokenProvider: this.coordinator, fetch: env.fetch })
  }

  get apiUrl(): string {
    return this.config.apiUrl
  }

  get appId(): string {
    return this.config.appId
  }

  /** Resolves when a sign-in coming back in the address bar has been completed (or has failed). */
  get signInCallback(): Promise<void> {
    return this.#callback ?? Promise.resolve()
  }

  /** Whether this page load brought a sign-in back from Echo (a code or an error in the address bar). */
  get hadSignInCallback(): boolean {
    return this.#callbackSeen
  }

  /**
   * Starts listening to the other tabs and the renew timer; the first time, also reads the address
   * bar for a sign-in coming back, or storage for a saved user. Safe to call again after `stop()`
   * (React StrictMode does): nothing is read or exchanged twice.
   */
  start(): void {
    if (this.#teardown.length > 0) return
    this.#listen()
    if (this.#initialized) return this.#scheduleRenew()
    this.#initialized = true
    const callback = readSignInCallback(this.#env.location.href)
    if (callback !== null && isOwnSignInState(this.#env.storage, callback.state, this.config.appId)) {
      this.#callbackSeen = true
      if (callback.kind === 'code') return this.#completeSignIn(this.#env.location.href)
      return this.#refuseSignIn(callback.state, callback.error, callback.description)
    }
    this.#restore()
    this.#completeTopUpReturn()
  }

  /**
   * This page is checkout coming back (its `successUrl`): the balance is stale here and in the
   * app's other tabs, which are told at once; the mark leaves the address bar, and a checkout tab
   * the app opened closes itself, leaving the user in the tab they bought from.
   */
  #completeTopUpReturn(): void {
    const topUp = readTopUpReturn(this.#env.location.href)
    if (topUp === null) return
    this.#env.history.replaceState(this.#env.history.state, '', topUp.cleaned)
    this.#channel?.postMessage({ type: 'balance' } satisfies TabMessage)
    this.#report.balanceChanged()
    if (topUp.openedIn === 'tab') this.#env.closeWindow()
  }

  /** Stops listening and the renew timer; the session keeps its user and can start again. */
  stop(): void {
    for (const remove of this.#teardown.splice(0)) remove()
    this.#env.clearTimeout(this.#renewTimer)
    for (const hook of this.#stopHooks) hook()
  }

  /**
   * Something made once for this session and kept for its life (the model router), so that what an
   * app does not use is never built, nor bundled.
   */
  memo<T>(key: symbol, create: () => T): T {
    if (!this.#memo.has(key)) this.#memo.set(key, create())
    return this.#memo.get(key) as T
  }

  /** Runs `hook` whenever the session stops (a pending timer of something built on it, say). */
  onStop(hook: () => void): void {
    this.#stopHooks.push(hook)
  }

  /** The session environment's timers. */
  get timers(): Pick<EchoEnvironment, 'setTimeout' | 'clearTimeout'> {
    const env = this.#env
    return { setTimeout: (run, ms) => env.setTimeout(run, ms), clearTimeout: (handle) => env.clearTimeout(handle) }
  }

  /** Leaves for Echo's sign-in page (authorization code + PKCE). Rejects with an `EchoError` if it cannot. */
  async signIn({ navigate }: SignInOptions = {}): Promise<void> {
    this.#report.signInStarted()
    this.#leaveFor = navigate
    try {
      await this.#userManager.signinRedirect()
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
    if (user === null) return null
    if (!this.#isExpired(user)) return user.access_token
    return this.coordinator.tokenAfter(user.access_token).catch(() => null)
  }

  #listen(): void {
    this.#teardown.push(this.#env.onStorage((event) => this.#onStorage(event)))
    const channel = this.#env.openChannel?.(this.#lockName)
    if (channel !== undefined) {
      const onMessage = (event: MessageEvent<unknown>) => this.#onTabMessage(event.data)
      channel.addEventListener('message', onMessage)
      this.#channel = channel
      this.#teardown.push(() => {
        channel.removeEventListener('message', onMessage)
        channel.close()
        this.#channel = undefined
      })
    }
  }

  #completeSignIn(href: string): void {
    // The address bar is cleaned before the exchange starts, so no later mount sees the code again.
    this.#cleanAddressBar(href)
    this.#report.signInStarted()
    this.#callback = (async () => {
      try {
        const user = await this.#userManager.signinRedirectCallback(href)
        user.profile = { ...user.profile, ...(await fetchUserInfo(this.#env.fetch, this.config.apiUrl, user.access_token)) } as User['profile']
        await this.#userManager.storeUser(user)
        this.#adopt(user)
      } catch (error) {
        await this.#userManager.removeUser()
        this.#report.signInFailed(EchoError.from(tokenFreeError(error), 'completing sign-in').toJSON())
      }
    })()
  }

  #refuseSignIn(state: string, error: string, description: string | null): void {
    this.#cleanAddressBar(this.#env.location.href)
    this.#env.storage.removeItem(`oidc.${state}`)
    const reason = description === null ? error : `${description} (${error})`
    this.#report.signInFailed({ code: 'UNKNOWN_ERROR', message: `Sign-in was refused: ${reason}` })
  }

  #cleanAddressBar(href: string): void {
    this.#env.history.replaceState(this.#env.history.state, '', withoutSignInParams(href))
  }

  /** Start-up: a saved user that is still valid is signed in at once; an expired one gets one renew. */
  #restore(): void {
    const stored = readStoredUser(this.#env.storage, this.#userKey)
    if (stored === null) {
      // Nothing usable: unreadable, or a sign-in that stopped between the code exchange and the profile.
      this.#env.storage.removeItem(this.#userKey)
      if (process.env.NODE_ENV !== 'production') this.#warnOfOtherSessions()
      return this.#report.signedOut()
    }
    if (!this.#isExpired(stored)) return this.#adopt(stored)
    this.#user = stored
    // A failure is handled by the coordinator's onRefreshError: logged, cleaned up, signed out.
    this.coordinator.refreshToken().catch(() => undefined)
  }

  /** A session stored for another app or Echo is a setup mistake (a test seeding the wrong config, an appId that changed): say so. */
  #warnOfOtherSessions(): void {
    const others = otherStoredUserKeys(this.#env.storage, this.#userKey)
    if (others.length === 0) return
    this.#env.logWarning(
      `echo-rtk: nobody is signed in to app ${this.config.appId} at ${this.config.apiUrl}, but this storage holds a session for ${others.map((key) => key.slice('oidc.user:'.length)).join(', ')}. If that is this app, its config's appId or apiUrl differs from the one it signed in with`,
    )
  }

  /** Makes `user` the session's user and tells the store: signed in if it is new, refreshed if not. */
  #adopt(user: User): void {
    const expiresAt = expiresAtMs(user)
    this.#user = user
    this.#lifetimeMs = Math.max(expiresAt - this.#env.now(), 0)
    const echoUser = toEchoUser(user.profile)
    if (this.#announcedUserId === echoUser.id) {
      this.#report.tokenRefreshed({ accessToken: user.access_token, expiresAt })
    } else {
      this.#announcedUserId = echoUser.id
      this.#report.signedIn({ user: echoUser, accessToken: user.access_token, expiresAt })
    }
    this.#scheduleRenew()
  }

  #scheduleRenew(): void {
    this.#env.clearTimeout(this.#renewTimer)
    const user = this.#user
    if (user === null || this.#teardown.length === 0) return
    const renewAt = renewAtMs({ expiresAt: expiresAtMs(user), lifetimeMs: this.#lifetimeMs })
    this.#renewTimer = this.#env.setTimeout(() => {
      // A token that lives for weeks is waited for in capped steps: one that is not due yet re-arms.
      if (!isRenewDue(renewAt, this.#env.now())) return this.#scheduleRenew()
      this.coordinator.refreshToken().catch(() => undefined)
    }, renewTimerDelayMs(renewAt, this.#env.now()))
  }

  /** The refresh itself, run by the coordinator: one at a time in this tab, and across tabs under a lock. */
  async #renew(): Promise<string> {
    const generation = this.#generation
    const stale = this.#user
    this.#report.tokenRefreshStarted()
    const renewed = await withCrossTabLock(this.#env.locks, this.#lockName, async () => {
      const replacesStale = (user: User | null): boolean =>
        user !== null && user.access_token !== stale?.access_token && !this.#isExpired(user)
      let stored = readStoredUser(this.#env.storage, this.#userKey)
      let newest = newestUser([stored, this.#handedOver, this.#user])
      if (!replacesStale(newest) && this.#channel !== undefined) {
        // The lock and the hand-over reach this tab as separate tasks: the tab that just rotated
        // the tokens may have posted them a moment before this callback ran. Give them time to land.
        await new Promise<void>((resolve) => this.#env.setTimeout(resolve, HANDOVER_GRACE_MS))
        stored = readStoredUser(this.#env.storage, this.#userKey)
        newest = newestUser([stored, this.#handedOver, this.#user])
      }
      // Another tab rotated the tokens while we waited for the lock: use theirs, never present a spent refresh token.
      if (newest !== null && replacesStale(newest)) return newest
      if (!newest?.refresh_token) throw new Error('There is no refresh token to renew the session with: sign in again')
      if (newest !== stored) await this.#userManager.storeUser(newest)
      const user = await this.#userManager.signinSilent().catch((error: unknown) => {
        throw tokenFreeError(error)
      })
      if (!user?.access_token || user.access_token === stale?.access_token) throw new Error('Silent renew did not yield a new access token')
      this.#channel?.postMessage({ type: 'tokens', user: user.toStorageString() } satisfies TabMessage)
      return user
    })
    if (generation !== this.#generation) {
      // Signed out (or given up on) while the refresh ran: what it stored must not outlive the sign-out.
      await this.#userManager.removeUser()
      throw new Error('The session ended while its token was being refreshed')
    }
    this.#adopt(renewed)
    return renewed.access_token
  }

  /** DESIGN §2: log, remove the stored user and stale state, sign out, and say the session ended (here and in the other tabs). */
  async #refreshFailed(error: Error): Promise<void> {
    this.#env.logError('Token refresh failed:', error)
    // Signed out (by the user, or by another tab) while the refresh ran: nothing more has ended.
    if (this.#user === null) return
    this.#channel?.postMessage({ type: 'ended' } satisfies TabMessage)
    await this.#forget({ removeStored: true })
    this.#report.signedOut(SESSION_ENDED)
  }

  async #forget({ removeStored }: { removeStored: boolean }): Promise<void> {
    this.#generation += 1
    this.#user = null
    this.#announcedUserId = null
    this.#handedOver = null
    this.#env.clearTimeout(this.#renewTimer)
    if (removeStored) {
      await this.#userManager.removeUser()
      await this.#userManager.clearStaleState()
      removeSignInStates(this.#env.storage, this.config.appId)
    }
  }

  /** Another tab signed in, refreshed or signed out. */
  #onStorage(event: StorageEvent): void {
    if (event.key !== null && event.key !== this.#userKey) return
    const stored = readStoredUser(this.#env.storage, this.#userKey)
    if (stored === null) {
      if (this.#user === null) return
      void this.#forget({ removeStored: false })
      this.#report.signedOut()
      return
    }
    // Another tab mid-sign-in has stored tokens without the profile yet: its next write brings it.
    if (!this.#isExpired(stored) && isNewer(stored, this.#user)) this.#adopt(stored)
  }

  /** Another tab handed over the tokens it rotated, or saw the session end. What arrives is checked: any page may post here. */
  #onTabMessage(message: unknown): void {
    const { type, user: text } = (message ?? {}) as Partial<{ type: unknown; user: unknown }>
    if (type === 'ended' && this.#user !== null) {
      void this.#forget({ removeStored: false })
      return this.#report.signedOut(SESSION_ENDED)
    }
    if (type === 'balance') return this.#report.balanceChanged()
    if (type !== 'tokens') return
    const user = userFromStorageString(text)
    if (user === null) return
    this.#handedOver = newestUser([user, this.#handedOver])
    if (this.#user !== null && !this.#isExpired(user) && isNewer(user, this.#user)) this.#adopt(user)
  }

  #isExpired(user: User): boolean {
    return expiresAtMs(user) <= this.#env.now()
  }
}
