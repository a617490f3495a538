import { createAuthorizedSend, createEchoFetch, type AuthorizedSend } from '../api/authorizedFetch'
import type { FetchFunction } from '../api/tokenProvider'
import { RefreshCoordinator } from '../api/refreshCoordinator'
import type { ResolvedEchoConfig } from '../config'
import type { RefreshCause } from '../api/tokenProvider'
import { EchoError } from '../errors'
import type { InterruptionCause, TokensCause } from './causes'
import { snapshotOf, type FirstPaint } from './firstPaint'
import { isWake, PageLifetimeStorage, STORAGE_BLOCKED, type EchoEnvironment, type PopupWindow } from './environment'
import { readSignInCallback, takeSignInCallback, type TakenSignInCallback } from './pageReturn'
import { handOverSignInReturn, openSignInWindow, popupError, waitForSignInReturn } from './popup'
import { attemptRefresh, RefreshTurns, type RefreshOutcome } from './refreshAttempt'
import { RenewTimer } from './renewTimer'
import {
  nextState,
  type SessionEvent,
  type SessionReporter,
  type SessionState,
  type SignInSource,
} from './sessionState'
import { expiresAtMs, isNewer, removeSignInStates, storedUserKey, takeStoredUser, type StoredUser } from './storedUser'
import { TabSync } from './tabs'
import {
  RECONNECTING,
  reconnecting,
  REFRESH_OUTLIVED,
  refusedSignIn,
  SESSION_ENDED,
  sessionStopped,
} from './sessionErrors'
import { returnToProblem, type SignInOptions, type SignInReturnTo } from './signInOptions'

export type { SignInOptions, SignInReturnTo } from './signInOptions'
export type { SessionReporter, SessionSnapshot, SignInSource } from './sessionState'

/**
 * One store's OIDC session: who is signed in, kept in storage, renewed on time and in step with the
 * other tabs. Its state is one `SessionState`, changed only by `#dispatch`, which also sends the
 * store the one matching report (as TanStack query-core's `Query` does). Besides the state it holds
 * handles, not facts: the one timer (the renew, or the backoff while Echo cannot be reached), the
 * listeners, the popup under way. Around it, files that hold none: the state's pure rules and its
 * timer's times (`sessionState.ts`), the timer itself (`renewTimer.ts`), the refresh attempt
 * (`refreshAttempt.ts`), the tabs (`tabs.ts`), the sign-in, loaded when one starts (`signIn.ts`), the
 * stored user, the environment.
 * Every refresh goes through its one `RefreshCoordinator` (docs/session.md, "The one shared refresh").
 */
export class EchoSession {
  readonly config: ResolvedEchoConfig
  readonly coordinator: RefreshCoordinator
  /** The authorized fetch of this session, for the RTK Query baseQuery and the model calls. */
  readonly sendAuthorized: AuthorizedSend
  /** The environment's `fetch` while the session runs; stopped, it sends nothing (`session-stopped`). */
  readonly fetch: FetchFunction
  readonly #env: EchoEnvironment
  readonly #report: SessionReporter
  readonly #tabs: TabSync
  readonly #turns = new RefreshTurns()
  /** The one pending timer: the renew of the current token, or the next try while Echo is out of reach. */
  readonly #timer: RenewTimer

  #state: SessionState = { phase: 'idle' }
  /** Aborts when the signed-in user is gone: a refresh begun for them must not outlive them. */
  #userScope = new AbortController()
  /** Between `start()` and `stop()`: a stopped session sends nothing, schedules nothing, writes nothing. */
  #running = false
  /** The sign-in coming back in the address bar, read once at the first start (`null`: none). */
  #pageCallback: TakenSignInCallback | null | undefined
  /** The sign-in in a popup window under way: a second `signIn()` focuses its window and waits for it. */
  #popupSignIn: { window: PopupWindow; done: Promise<void> } | undefined
  #stopWaking: (() => void) | undefined
  #callback: Promise<void> | undefined

  constructor(config: ResolvedEchoConfig, report: SessionReporter, env: EchoEnvironment) {
    this.config = config
    this.#env = env
    this.#report = report
    this.#tabs = new TabSync(config, env)
    this.#timer = new RenewTimer(env)
    // Each attempt keeps its own deadline (refreshAttempt.ts), so the coordinator adds none.
    const tokens = {
      getAccessToken: () => Promise.resolve(this.#user?.access_token ?? null),
      refreshToken: (cause?: RefreshCause) => this.#renew(cause ?? { by: 'app' }),
    }
    this.coordinator = new RefreshCoordinator(tokens, { refreshTimeoutMs: Infinity })
    // Stopped means inert: a call through a stopped session (an unmounted provider's query, say) sends nothing.
    this.fetch = (input, init) =>
      this.#running ? env.fetch(input, init) : Promise.reject(sessionStopped('sending a request'))
    this.sendAuthorized = createAuthorizedSend({ tokenProvider: this.coordinator, fetch: this.fetch })
  }

  /** Where Echo's API calls go: Echo's own `apiUrl`. */
  get apiBase(): string {
    return this.config.apiUrl
  }

  /** A send over `fetch` (the store's billed fetch, say) with this session's token and its one shared refresh. */
  sendOver(fetch: FetchFunction): AuthorizedSend {
    return createAuthorizedSend({ tokenProvider: this.coordinator, fetch })
  }

  /**
   * The session's fetch for model clients over `fetch` (`useEchoFetch()`): the token, the one shared refresh and
   * marked retry, sent only to the session's API and router origins and the app's own `serverOrigins`.
   */
  echoFetchOver(fetch: FetchFunction): FetchFunction {
    const { apiUrl, baseRouterUrl, serverOrigins } = this.config
    return createEchoFetch({
      tokenProvider: this.coordinator,
      fetch,
      allowedOrigins: [apiUrl, baseRouterUrl],
      serverOrigins,
    })
  }

  /** Resolves when a sign-in coming back in the address bar has been completed (or has failed, or handed over). */
  get signInCallback(): Promise<void> {
    return this.#callback ?? Promise.resolve()
  }

  /**
   * This page is a sign-in popup handing its answer to the window that opened it: it shows nothing
   * and runs no session of its own (no second session, no renewal), and closes once it is taken.
   */
  get isHandingOver(): boolean {
    return this.#state.phase === 'handingOver'
  }

  /** Who is signed in (or held for the start-up renew): the tokens and profile, as stored. */
  get #user(): StoredUser | null {
    const state = this.#state
    return state.phase === 'signedIn' || state.phase === 'restoring' ? state.user : null
  }

  /** Refresh attempts in a row that could not reach Echo. */
  get #failures(): number {
    return this.#state.phase === 'signedIn' ? this.#state.failures : 0
  }

  /**
   * The one place the session's state changes: `event` moves it to its next state, and the store is
   * told what happened, once (`told`: it already was, before this code had loaded: `firstPaint.ts`).
   * A user that leaves (signed out, or another user in their place) ends their scope, so a refresh
   * begun for them is thrown away.
   */
  #dispatch(event: SessionEvent, told = false): void {
    const from = this.#state
    const next = nextState(from, event, this.#env.now())
    const fromUserId = userIdOf(from)
    const nextUserId = userIdOf(next)
    if (fromUserId !== null && fromUserId !== nextUserId) this.#newUserScope()
    this.#state = next
    if (told) return
    const report = this.#report
    switch (event.type) {
      case 'signInStarted':
        return report.signInStarted(event.inWindow)
      case 'signInFailed':
        return report.signInFailed(event.error, event.arrivedBy)
      case 'tokensTaken': {
        // New tokens always sign in (nextState).
        const { expiresAt } = next as Extract<SessionState, { phase: 'signedIn' }>
        if (fromUserId === nextUserId && event.returnTo === undefined)
          return report.tokenRefreshed({ accessToken: event.user.access_token, expiresAt }, event.cause)
        const snapshot = { ...snapshotOf(event.user, event.arrivedBy), expiresAt }
        return report.signedIn(event.returnTo === undefined ? snapshot : { ...snapshot, returnTo: event.returnTo })
      }
      case 'tokenRefreshStarted':
        return report.tokenRefreshStarted(event.cause)
      case 'tokenRefreshInterrupted':
        return report.tokenRefreshInterrupted(event.cause)
      case 'signedOut':
        return report.signedOut(event.cause, event.ended)
      default:
        // handOverStarted, handOverDeclined, restored: nothing for the store yet.
        return
    }
  }

  /**
   * Listens to the other tabs and the network, arms the renew timer, and the first time takes the
   * page's sign-in or stored user; again after `stop()` (StrictMode), nothing twice. A
   * popup's sign-in coming back is handed to its opener instead. `told`: what the store was told
   * before this code had loaded (`firstPaint.ts`), which the start takes as said.
   */
  start(told?: FirstPaint): void {
    this.#running = true
    if (this.#tabs.isListening || this.#state.phase === 'handingOver') return
    if (this.#pageCallback === undefined) {
      this.#pageCallback = takeSignInCallback(this.#env, this.config.appId)
      if (this.#pageCallback?.popup) return this.#handOver(this.#pageCallback)
    }
    this.#tabs.listen({
      storedUserChanged: (user, cleared) => this.#fromTab(user, cleared),
      handedOver: (user) => this.#user !== null && this.#fromTab(user),
      ended: () => this.#endedElsewhere(),
    })
    // Back online, or the page shown again: a session that could not reach Echo tries at once.
    this.#stopWaking = this.#env.onPageSignal(
      (signal) => isWake(signal) && this.#failures > 0 && this.#renewInBackground({ by: signal }),
    )
    if (this.#state.phase !== 'idle') return this.#scheduleRenew()
    const callback = this.#pageCallback
    if (callback === null) this.#restore(told)
    else if (callback.kind === 'error') {
      this.#env.storage.removeItem(`oidc.${callback.state}`)
      this.#dispatch({ type: 'signInFailed', error: refusedSignIn(callback).toJSON(), arrivedBy: 'callback' })
    } else {
      this.#dispatch({ type: 'signInStarted', inWindow: false })
      this.#callback = import('./signIn')
        .then(({ completeSignIn }) => completeSignIn(this.#env, this.config, callback.href))
        .then(
          ({ user, returnTo }) => this.#adopt(user, 'callback', { by: 'echo' }, returnTo),
          (error: unknown) =>
            this.#dispatch({
              type: 'signInFailed',
              error: EchoError.from(error, 'completing sign-in').toJSON(),
              arrivedBy: 'callback',
            }),
        )
    }
  }

  /**
   * This page is the popup a sign-in came back to: hands the answer to the opener and closes. If no
   * opener takes it (its tab was closed, or the sign-in cut the window from it), the page completes
   * the sign-in itself, as after a redirect.
   */
  #handOver(callback: TakenSignInCallback): void {
    this.#dispatch({ type: 'handOverStarted' })
    const { appId } = this.config
    this.#callback = handOverSignInReturn(this.#env, { appId, state: callback.state, href: callback.href }).then(
      (taken) => {
        if (taken) return this.#env.closeWindow()
        this.#dispatch({ type: 'handOverDeclined' })
        if (!this.#running) return
        this.start()
        return this.#callback
      },
    )
  }

  /** Stops listening and the timer; the session keeps its user (and an outage's count) and can start again. */
  stop(): void {
    this.#running = false
    this.#tabs.stop()
    this.#timer.clear()
    this.#stopWaking?.()
    this.#stopWaking = undefined
  }

  /**
   * Signs in (authorization code + PKCE): in a window of its own, resolving once signed in, or by
   * leaving the page for Echo's sign-in (`SignInOptions.popup`, else `EchoConfig.signIn`). The
   * window is opened before anything is awaited, so a call from a click is not blocked; a second
   * call while it is open focuses it. Rejects with an `EchoError` if it cannot.
   */
  signIn(options: SignInOptions = {}): Promise<void> {
    if (!this.#running) return Promise.reject(sessionStopped('starting sign-in'))
    if (this.#popupSignIn !== undefined) {
      this.#popupSignIn.window.focus()
      return this.#popupSignIn.done
    }
    const { navigate = (url) => this.#env.navigate(url), popup = this.config.signIn === 'popup', returnTo } = options
    const problem = returnToProblem(returnTo)
    if (problem !== null)
      return Promise.reject(
        new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-argument', message: problem, action: 'starting sign-in' }),
      )
    // PKCE needs storage that outlives the page.
    const storageBlocked = this.#env.storage instanceof PageLifetimeStorage
    const window = popup === false || storageBlocked ? null : openSignInWindow(this.#env)
    this.#dispatch({ type: 'signInStarted', inWindow: window !== null })
    if (storageBlocked) return this.#signInFailed(new Error(STORAGE_BLOCKED))
    if (window !== null) {
      const done = this.#signInInPopup(window, returnTo).finally(() => (this.#popupSignIn = undefined))
      this.#popupSignIn = { window, done }
      return done
    }
    if (popup === 'only') return this.#signInFailed(popupError('popup-blocked'))
    return this.#signInByRedirect(navigate, returnTo)
  }

  /**
   * For a billed call made while nobody is signed in, with `EchoConfig.signInOnDemand`: the sign-in
   * in a window that the call waits for (opened now, in the call's click); `undefined` when there is
   * nothing to wait for.
   */
  signInForCall(): Promise<void> | undefined {
    if (this.#user !== null || !this.config.signInOnDemand) return undefined
    return this.signIn({ popup: 'only' })
  }

  async #signInByRedirect(navigate: (url: string) => void, returnTo: SignInReturnTo | undefined): Promise<void> {
    try {
      const { signInUrl } = await import('./signIn')
      navigate((await signInUrl(this.config, this.#env.storage, { returnTo })).url)
    } catch (error) {
      await this.#signInFailed(error)
    }
  }

  /**
   * The sign-in in `window`: sends it to Echo, waits for its answer, and makes the one code exchange
   * here. Closed by the user, it leaves nobody signed in and no error to show (their choice); any
   * other failure is reported.
   */
  async #signInInPopup(window: PopupWindow, returnTo: SignInReturnTo | undefined): Promise<void> {
    try {
      const { signInUrl, completeSignIn } = await import('./signIn')
      const { url, state } = await signInUrl(this.config, this.#env.storage, { popup: true, returnTo })
      if (window.closed) throw popupError('popup-closed')
      window.location.replace(url)
      const href = await waitForSignInReturn(this.#env, { popup: window, state, appId: this.config.appId })
      const answer = readSignInCallback(href)
      if (answer?.kind === 'error') throw refusedSignIn(answer)
      const completed = await completeSignIn(this.#env, this.config, href)
      this.#adopt(completed.user, 'callback', { by: 'echo' }, completed.returnTo)
    } catch (error) {
      if (!window.closed) window.close()
      // Signed in meanwhile another way (the popup completed it, another tab): that is the sign-in asked for.
      if (this.#user !== null) return
      const failure = error instanceof EchoError ? error : EchoError.from(error, 'signing in')
      if (failure.reason !== 'popup-closed') return this.#signInFailed(failure)
      this.#dispatch({ type: 'signedOut', cause: { by: 'window-closed' } })
      throw failure
    }
  }

  /** Reports a sign-in that could not start or complete, and rejects with it. */
  #signInFailed(error: unknown): Promise<never> {
    const failure = error instanceof EchoError ? error : EchoError.from(error, 'starting sign-in')
    this.#dispatch({ type: 'signInFailed', error: failure.toJSON() })
    return Promise.reject(failure)
  }

  /** Forgets the user in this tab and, through storage, in the others. */
  async signOut(): Promise<void> {
    if (!this.#running) throw sessionStopped('signing out')
    this.#forget({ removeStored: true })
    this.#dispatch({ type: 'signedOut', cause: { by: 'user' } })
    return Promise.resolve()
  }

  /**
   * The access token, refreshed first through the coordinator if it has expired; `null` when
   * nobody is signed in (or the refresh was refused: the session has ended). Rejects with a
   * `NETWORK_ERROR` while Echo cannot be reached.
   */
  async getToken(): Promise<string | null> {
    const user = this.#user
    if (user === null || !this.#isExpired(user)) return user?.access_token ?? null
    return this.coordinator
      .tokenAfter(user.access_token, undefined, { by: 'expired-token' })
      .catch((error: unknown) => {
        if (error instanceof EchoError && error.code === 'NETWORK_ERROR') throw error
        return null
      })
  }

  /**
   * Start-up: a saved user that is still valid is signed in at once; an expired one gets one renew.
   * What the store was `told` already (the same user, or nobody) is not told again.
   */
  #restore(told?: FirstPaint): void {
    const stored = takeStoredUser(this.#env, this.config)
    if (stored === null)
      return this.#dispatch({ type: 'signedOut', cause: { by: 'nothing-stored' } }, told?.told === 'signedOut')
    if (!this.#isExpired(stored)) {
      const shown = told?.told === 'signedIn' && told.snapshot.accessToken === stored.access_token
      this.#dispatch({ type: 'tokensTaken', user: stored, arrivedBy: 'storage', cause: { by: 'storage' } }, shown)
      return this.#scheduleRenew()
    }
    this.#dispatch({ type: 'restored', user: stored })
    this.#renewInBackground({ by: 'start-up' })
  }

  /**
   * Makes `user` the session's user and tells the store: signed in if it is new, refreshed if not (new tokens end an
   * outage: the store's balance follower asks again for what failed meanwhile).
   */
  #adopt(user: StoredUser, arrivedBy: SignInSource, cause: TokensCause, returnTo?: SignInReturnTo): void {
    this.#dispatch({ type: 'tokensTaken', user, arrivedBy, cause, returnTo })
    this.#scheduleRenew()
  }

  /** Arms the one timer for the signed-in user (`renewTimer.ts`); none for a stopped session or nobody signed in. */
  #scheduleRenew(): void {
    this.#timer.clear()
    const state = this.#state
    if (this.#running && state.phase === 'signedIn') this.#timer.arm(state, (cause) => this.#renewInBackground(cause))
  }

  /** A refresh nobody waits for (the timer, the backoff, start-up): its outcome is acted on in `#settle`. */
  #renewInBackground(cause: RefreshCause): void {
    this.coordinator.refreshToken(cause).catch(() => undefined)
  }

  /** The coordinator's refresh: one attempt, then what it means; resolves to the new access token, or rejects. */
  async #renew(cause: RefreshCause): Promise<string> {
    const from = this.#user
    if (from === null) throw new Error(REFRESH_OUTLIVED)
    if (!this.#running) throw sessionStopped('refreshing the token')
    const userGone = this.#userScope.signal
    this.#dispatch({ type: 'tokenRefreshStarted', cause })
    const onLateOutcome = (late: RefreshOutcome) => {
      // Late tokens are taken, a late refusal ends the session; a late failure to reach Echo adds nothing.
      if (late.kind === 'unreachable') return
      try {
        this.#settle(late, userGone)
      } catch {
        // Nobody waits on a late answer: what it means is done, and its reason was logged if Echo refused.
      }
    }
    const outcome = await attemptRefresh(
      { env: this.#env, tabs: this.#tabs, turns: this.#turns, config: this.config },
      { from, userGone, onLateOutcome },
    )
    return this.#settle(outcome, userGone)
  }

  /**
   * What a refresh's outcome means (docs/session.md, 'What "the refresh fails" means'): new tokens are adopted;
   * Echo out of reach keeps the user and tries again; Echo's refusal ends the session, in every tab.
   */
  #settle(outcome: RefreshOutcome, userGone: AbortSignal): string {
    if (userGone.aborted || outcome.kind === 'outlived') throw new Error(REFRESH_OUTLIVED)
    if (outcome.kind === 'renewed') {
      this.#adopt(outcome.user, this.#state.phase === 'signedIn' ? 'tab' : 'storage', { by: outcome.from })
      return outcome.user.access_token
    }
    if (outcome.kind === 'unreachable') throw this.#interrupted(outcome.error, outcome.cause)
    // Refused: the failure is logged, the stored user and stale state removed, and the user signed out, in every tab.
    // Refused after a stop (a refresh that was under way): forgotten here only; a live session finds out for itself.
    this.#env.logError('Token refresh failed:', outcome.error)
    if (this.#running) this.#tabs.tell({ type: 'ended' })
    this.#forget({ removeStored: this.#running })
    this.#dispatch({ type: 'signedOut', cause: outcome.cause, ended: SESSION_ENDED })
    throw outcome.error
  }

  /** Echo could not be reached: the user stays signed in (a stored one too), and the session tries again. */
  #interrupted(error: Error, cause: InterruptionCause): EchoError {
    const state = this.#state
    if (state.phase === 'restoring')
      this.#dispatch({ type: 'tokensTaken', user: state.user, arrivedBy: 'storage', cause: { by: 'storage' } })
    this.#dispatch({ type: 'tokenRefreshInterrupted', cause })
    // A stopped session (its provider unmounted) keeps the count for a restart, and says nothing.
    if (this.#failures === 1 && this.#running) this.#env.logWarning(`echo-rtk: ${RECONNECTING} (${error.message})`)
    this.#scheduleRenew()
    return reconnecting(error)
  }

  /**
   * Clears what the user left in this session's handles (the store is told by the caller's event, when
   * and why); from storage too with `removeStored`.
   */
  #forget({ removeStored = false } = {}): void {
    this.#newUserScope()
    this.#tabs.forget()
    this.#timer.clear()
    if (!removeStored) return
    this.#env.storage.removeItem(storedUserKey(this.config))
    // Only this app's sign-in states left long ago: a younger one may be a sign-in under way elsewhere.
    removeSignInStates(this.#env.storage, this.config.appId, this.#env.now())
  }

  #newUserScope(): void {
    this.#userScope.abort()
    this.#userScope = new AbortController()
  }

  /** Another tab signed in, refreshed (storage, or a hand-over) or signed out (or the storage was `cleared`). */
  #fromTab(user: StoredUser | null, cleared = false): void {
    if (user !== null)
      return void (!this.#isExpired(user) && isNewer(user, this.#user) && this.#adopt(user, 'tab', { by: 'tab' }))
    if (this.#user === null) return
    this.#forget()
    // Remembered (byTab) for a "session ended" that may follow on the channel.
    this.#dispatch({ type: 'signedOut', cause: { by: cleared ? 'storage-cleared' : 'tab' } })
  }

  /** Another tab's refresh was refused: the session has ended, and says so here too, whichever signal came first. */
  #endedElsewhere(): void {
    const state = this.#state
    if (this.#user !== null) this.#forget()
    else if (state.phase !== 'signedOut' || !state.byTab) return
    this.#dispatch({ type: 'signedOut', cause: { by: 'tab-ended' }, ended: SESSION_ENDED })
  }

  #isExpired(user: StoredUser): boolean {
    return expiresAtMs(user) <= this.#env.now()
  }
}

/** Who the store was told is signed in, in `state`; `null` for nobody. */
const userIdOf = (state: SessionState): string | null => (state.phase === 'signedIn' ? state.userId : null)
