import type { Dispatch, UnknownAction } from '@reduxjs/toolkit'
import { setupListeners } from '@reduxjs/toolkit/query'

import type { AuthorizedSend } from '../api/authorizedFetch'
import { sessionPortOf, type SessionPort } from '../api/query/sessionPort'
import type { EchoRouter } from '../api/router/EchoRouter'
import type { FetchFunction } from '../api/tokenProvider'
import { EchoSession, type SessionReporter } from '../auth/EchoSession'
import type { PageSession } from '../auth/pageSession'
import { ServerSession } from '../auth/ServerSession'
import { afterPaint, type EchoEnvironment } from '../auth/environment'
import type { ResolvedEchoConfig } from '../config'
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
import { BalanceFollower } from './money/balanceFollower'
import type { BilledFetch, BilledFetchParts } from './money/billedCalls'
import { SpendWatch } from './money/spendWatch'
import { TopUpWatch } from './money/topUpWatch'

/** The store a runtime serves: what it reads and what it tells. */
export interface RuntimeStore {
  dispatch: Dispatch
  getState: () => unknown
}

/**
 * Everything echo-rtk runs for one store: the session, the money (the balance it follows, the
 * spend, the top-up waited for), the billed fetch and router made on first use, and RTK Query's
 * focus and reconnect listeners. The session middleware makes it at the first start and hands it
 * each action; the thunks and hooks reach it through the session port. `stop()` makes it inert:
 * nothing it scheduled runs, no request leaves, nothing is written to storage or told to other tabs,
 * until `start()` again.
 */
export class EchoRuntime implements SessionPort {
  readonly session: PageSession
  readonly environment: EchoEnvironment
  readonly spend: SpendWatch
  readonly #dispatch: Dispatch
  readonly #getState: () => EchoRootState
  readonly #topUp: TopUpWatch
  readonly #balance: BalanceFollower
  #running = false
  #stopWindowListeners: (() => void) | undefined
  #billed: BilledFetch | undefined
  #echoFetch: FetchFunction | undefined
  #router: EchoRouter | undefined

  constructor(store: RuntimeStore, config: ResolvedEchoConfig, environment: EchoEnvironment) {
    const getState = store.getState as () => EchoRootState
    this.#dispatch = store.dispatch
    this.#getState = getState
    this.environment = environment
    this.spend = new SpendWatch(store.dispatch, getState)
    this.#topUp = new TopUpWatch(store.dispatch, getState)
    this.#balance = new BalanceFollower(store.dispatch, getState, environment.afterPaint ?? afterPaint)
    const reports = sessionReports(store.dispatch)
    this.session =
      config.session === 'server'
        ? new ServerSession(config, reports, environment)
        : new EchoSession(config, reports, environment)
  }

  get config(): ResolvedEchoConfig {
    return this.session.config
  }

  /** The session's authorized fetch, for the RTK Query baseQuery. */
  get sendAuthorized(): AuthorizedSend {
    return this.session.sendAuthorized
  }

  /** Where Echo's API calls go: Echo's `apiUrl`, or the app's server in server mode. */
  get apiBase(): string {
    return this.session.apiBase
  }

  get isRunning(): boolean {
    return this.#running
  }

  // The billed calls are made on first use by what the thunks hand in, so a page that makes none carries none of
  // their code: each is one slot, made once for the store's life, whose pending work stops with the runtime.

  /** The fetch under every billed call, made by `make` the first time. */
  billedFetch(make: (parts: BilledFetchParts) => BilledFetch): FetchFunction {
    if (this.#billed === undefined) {
      // The session's fetch: a stopped store's model calls send nothing either.
      const environment = { ...this.environment, fetch: this.session.fetch }
      const { config, spend } = this
      const parts = { config, environment, dispatch: this.#dispatch, getState: this.#getState, spend }
      this.#billed = make({ ...parts, balance: this.#balance })
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
    if (this.#running) return
    this.#running = true
    this.spend.start(this.environment, this.config)
    this.#balance.start(this.config.appId)
    this.#topUp.start(this.environment, this.config)
    this.session.start()
    // Coming back to the page (focus, back online) refetches the balance.
    if (typeof window !== 'undefined') this.#stopWindowListeners = setupListeners(this.#dispatch, listenToWindow)
  }

  /** Makes the runtime inert until the next start. */
  stop(): void {
    this.#running = false
    this.#stopWindowListeners?.()
    this.#stopWindowListeners = undefined
    this.#billed?.stop()
    this.#balance.stop()
    this.#topUp.stop()
    this.spend.stop()
    this.session.stop()
  }

  /** A checkout said it was paid (`paidAtCheckout` in `echo-rtk/testing` plays one). */
  checkoutPaid(): void {
    if (this.#running) this.#topUp.paid()
  }

  /** Called before an action reaches the reducers. */
  prepare(action: UnknownAction): void {
    if (this.#running) this.#balance.prepare(action)
  }

  /** Called after an action has reached the reducers. */
  follow(action: UnknownAction): void {
    if (!this.#running) return
    this.#balance.follow(action)
    this.spend.follow(action)
    this.#topUp.follow(action)
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
 * RTK Query's focus and reconnect listeners, this store's own (its `setupListeners` with a handler
 * of ours): before Redux Toolkit 2.14 its default handler listened for the first store of a page
 * only, so a second store (the app's own, or a second provider's) never refetched.
 */
function listenToWindow(
  dispatch: Dispatch,
  { onFocus, onFocusLost, onOnline, onOffline }: ListenerActions,
): () => void {
  const handlers: Record<string, () => void> = {
    focus: () => dispatch(onFocus()),
    visibilitychange: () => dispatch(document.visibilityState === 'visible' ? onFocus() : onFocusLost()),
    online: () => dispatch(onOnline()),
    offline: () => dispatch(onOffline()),
  }
  for (const [event, handler] of Object.entries(handlers)) window.addEventListener(event, handler)
  return () => {
    for (const [event, handler] of Object.entries(handlers)) window.removeEventListener(event, handler)
  }
}
