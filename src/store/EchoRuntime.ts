import type { Dispatch } from '@reduxjs/toolkit'
import { setupListeners } from '@reduxjs/toolkit/query'

import type { AuthorizedSend } from '../api/authorizedFetch'
import { sessionPortOf, type SessionPort } from '../api/query/sessionPort'
import type { EchoRouter } from '../api/router/EchoRouter'
import type { FetchFunction } from '../api/tokenProvider'
import { browserFirstPaint, serverFirstPaint, tellFirstPaint, type FirstPaint } from '../auth/firstPaint'
import { makeSession } from '../auth/loadSession'
import type { PageSession } from '../auth/pageSession'
import { sessionStopped } from '../auth/sessionErrors'
import type { SessionReporter } from '../auth/sessionState'
import type { EchoEnvironment, PageSignal } from '../auth/environment'
import type { ResolvedEchoConfig } from '../config'
import { EchoError } from '../errors'
import {
  signedIn,
  signedOut,
  signInFailed,
  signInStarted,
  tokenRefreshed,
  tokenRefreshInterrupted,
  tokenRefreshStarted,
} from './authSlice'
import type { EchoRootState } from './echoReducer'
import type { BilledFetch, BilledFetchParts } from './money/billedCalls'
import { StoreMoney, type MoneyStore } from './money/storeMoney'

/** The store a runtime serves: what it reads and what it tells, and how its money puts its listeners in the chain. */
export type RuntimeStore = MoneyStore

/**
 * Everything echo-rtk runs for one store: the session, the money (the balance it follows, the
 * spend, the top-up waited for), the billed fetch and router made on first use, and RTK Query's
 * focus and reconnect listeners. The session middleware makes it at the first start; its features
 * hear the store's actions through the store's listener middleware, for as long as the run they
 * started in; the thunks and hooks reach it through the session port. `stop()` ends the run, which
 * makes it inert: nothing it scheduled runs, no request leaves, nothing is written to storage or told
 * to other tabs, until `start()` again.
 */
export class EchoRuntime implements SessionPort {
  readonly config: ResolvedEchoConfig
  readonly environment: EchoEnvironment
  /**
   * The session, once its chunk has loaded (it starts loading with the runtime; a page loads its
   * mode's session code only): what the thunks, the hooks and the billed calls act through.
   */
  readonly ready: Promise<PageSession>
  /** The environment's `fetch` while the runtime runs; stopped, it sends nothing (`session-stopped`). */
  readonly fetch: FetchFunction
  readonly sendAuthorized: AuthorizedSend
  readonly #dispatch: Dispatch
  readonly #getState: () => EchoRootState
  /** The store's money: the balance it follows, the spend, the top-up waited for. */
  readonly #money: StoreMoney
  /** The run since the last start: aborted at the stop. */
  #run: AbortController | undefined
  #session: PageSession | undefined
  readonly #reports: SessionReporter
  /** What the store was told before the session had loaded (the first paint), until the session starts from it. */
  #told: FirstPaint | undefined
  /** The first paint being told: `undefined` before any start, settled once it is told (server mode asks first). */
  #telling: Promise<void> | undefined
  #stopWindowListeners: (() => void) | undefined
  #billed: BilledFetch | undefined
  #echoFetch: FetchFunction | undefined
  #router: EchoRouter | undefined

  constructor(store: RuntimeStore, config: ResolvedEchoConfig, environment: EchoEnvironment) {
    const getState = store.getState as () => EchoRootState
    this.#dispatch = store.dispatch
    this.#getState = getState
    this.environment = environment
    this.config = config
    this.fetch = (input, init) =>
      this.isRunning ? environment.fetch(input, init) : Promise.reject(sessionStopped('sending a request'))
    this.sendAuthorized = (input, init) => this.withSession((session) => session.sendAuthorized(input, init))
    this.#reports = sessionReports(store.dispatch)
    this.#money = new StoreMoney(store, environment)
    const made = makeSession(config, this.#reports, environment)
    if (!(made instanceof Promise)) {
      this.#session = made
      this.ready = Promise.resolve(made)
      return
    }
    this.ready = made.then(
      async (session) => {
        this.#session = session
        await this.#telling
        if (this.isRunning) this.#startSession(session)
        return session
      },
      (error: unknown) => {
        // Said a moment later: a page going away (a checkout tab closing itself, a sign-in leaving) drops the
        // chunk it was loading, and has nothing to say.
        environment.setTimeout(() => environment.logError('echo-rtk: the session could not be loaded:', error), 1_000)
        throw new EchoError({
          code: 'NETWORK_ERROR',
          reason: 'network',
          message: "echo-rtk's session code could not be loaded: reload the page",
          cause: error,
        })
      },
    )
    // Its failure is said above, and again to whoever waits for the session: never unhandled.
    this.ready.catch(() => undefined)
  }

  /** The session, or `undefined` while its chunk loads. */
  get session(): PageSession | undefined {
    return this.#session
  }

  /**
   * Runs `use` with the session: at once when it has loaded (so a sign-in from a click opens its
   * window inside the click), else once it has.
   */
  withSession<T>(act: (session: PageSession) => T | Promise<T>): Promise<T> {
    const session = this.#session
    if (session === undefined) return this.ready.then(act)
    // The promise `act` returns, as it is: no tick added to every call made through the session.
    try {
      return Promise.resolve(act(session))
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
  }

  /** Where Echo's API calls go: Echo's `apiUrl`, or the app's server in server mode. */
  get apiBase(): string {
    return this.config.session === 'server' ? this.config.serverUrl : this.config.apiUrl
  }

  get isRunning(): boolean {
    return this.#run?.signal.aborted === false
  }

  // The billed calls are made on first use by what the thunks hand in, so a page that makes none carries none of
  // their code: each is one slot, made once for the store's life, whose pending work stops with the runtime.

  /** The fetch under every billed call, made by `make` the first time. */
  billedFetch(make: (parts: BilledFetchParts) => BilledFetch): FetchFunction {
    if (this.#billed === undefined) {
      // The session's fetch: a stopped store's model calls send nothing either.
      const environment = { ...this.environment, fetch: this.fetch }
      const { config } = this
      const { spend, balance } = this.#money
      this.#billed = make({ config, environment, dispatch: this.#dispatch, getState: this.#getState, spend, balance })
    }
    return this.#billed.fetch
  }

  /** The session's fetch for model clients (`useEchoFetch()`), made by `make` the first time. */
  echoFetch(make: () => FetchFunction): FetchFunction {
    return (this.#echoFetch ??= make())
  }

  /** The session's model router (`useEchoRouter()`), made by `make` the first time. */
  router(make: () => EchoRouter): EchoRouter {
    return (this.#router ??= make())
  }

  /** Starts (again, after a stop): the money parts first, so they hear what the session reports as it starts. */
  start(): void {
    if (this.isRunning) return
    this.#run = new AbortController()
    this.#money.start(this.#run, this.environment, this.config)
    if (this.#session !== undefined) this.#startSession(this.#session)
    else this.#telling ??= this.#tellFirstPaint()
    // Coming back to the page (focus, back online) refetches the balance.
    if (typeof window !== 'undefined')
      this.#stopWindowListeners = setupListeners(this.#dispatch, (dispatch, actions) =>
        this.environment.onPageSignal((signal) => dispatch(actions[QUERY_ACTIONS[signal]]())),
      )
  }

  /**
   * Whether the first paint must wait for the session's code: this page is a sign-in popup handing its
   * answer over (it shows nothing); otherwise the store already shows who is signed in, or that the
   * session is loading.
   */
  get firstPaintWaits(): boolean {
    return this.#session === undefined && this.#told?.told === 'nothing' && this.#told.handsOver
  }

  /**
   * Tells the store who is signed in before the session's code has loaded, with as little code as it
   * takes (`firstPaint.ts`): the stored user at once, or the app's server's answer in server mode.
   */
  #tellFirstPaint(): Promise<void> | undefined {
    // Told only while running: a store stopped meanwhile leaves it all to the session's own start.
    const paint = (told: FirstPaint) => {
      if (!this.isRunning) return
      this.#told = told
      tellFirstPaint(told, this.#reports)
    }
    if (this.config.session !== 'server') return void paint(browserFirstPaint(this.environment, this.config))
    return serverFirstPaint({ ...this.environment, fetch: this.fetch }, this.config).then(paint)
  }

  /** Starts the session, from what the store was told before it had loaded the first time. */
  #startSession(session: PageSession): void {
    const told = this.#told
    this.#told = undefined
    session.start(told)
  }

  /** Makes the runtime inert until the next start. */
  stop(): void {
    this.#run?.abort()
    this.#stopWindowListeners?.()
    this.#stopWindowListeners = undefined
    this.#billed?.stop()
    this.#session?.stop()
  }

  /** A checkout said it was paid (`paidAtCheckout` in `echo-rtk/testing` plays one). */
  checkoutPaid(): void {
    if (this.isRunning) this.#money.topUp.paid()
  }

  /** The user's own daily limit for this app (`null`: none), kept for them in this browser. */
  chooseDailyLimit(limit: number | null): void {
    this.#money.spend.chooseDailyLimit(limit)
  }
}

/**
 * The runtime of the store behind `dispatch`: the one way the thunks and the hooks find its session
 * and money. Throws a message that says what to add when the store has no session middleware, or its
 * session has not been started.
 * @internal
 */
export function runtimeOf(dispatch: (action: { type: string }) => unknown): EchoRuntime {
  return sessionPortOf(dispatch) as EchoRuntime
}

/** What the session reports, as the store's actions. */
function sessionReports(dispatch: Dispatch): SessionReporter {
  return {
    signInStarted: (inWindow) => dispatch(signInStarted(inWindow === true)),
    signedIn: (snapshot) => dispatch(signedIn(snapshot)),
    signInFailed: (error, arrivedBy) => dispatch(signInFailed(error, arrivedBy)),
    tokenRefreshStarted: (cause) => dispatch(tokenRefreshStarted(cause)),
    tokenRefreshed: (token, cause) => dispatch(tokenRefreshed(token, cause)),
    tokenRefreshInterrupted: (cause) => dispatch(tokenRefreshInterrupted(cause)),
    signedOut: (cause, ended) => dispatch(signedOut(cause, ended)),
  }
}

/** The browser's signals RTK Query refetches on, and the RTK Query action each one is. */
type ListenerActions = Parameters<NonNullable<Parameters<typeof setupListeners>[1]>>[1]

/**
 * The RTK Query action a page signal is (its refetch on focus and reconnect). The store hears the signals on the
 * environment's one wire, as the session does, through its own `setupListeners` handler: before Redux Toolkit 2.14
 * the default handler listened for the first store of a page only, so a second store never refetched.
 */
const QUERY_ACTIONS = {
  focus: 'onFocus',
  visible: 'onFocus',
  hidden: 'onFocusLost',
  online: 'onOnline',
  offline: 'onOffline',
} as const satisfies Record<PageSignal, keyof ListenerActions>
