import {
  createAction,
  isAction,
  type Dispatch,
  type Middleware,
  type Store,
  type UnknownAction,
} from '@reduxjs/toolkit'
import { setupListeners } from '@reduxjs/toolkit/query'

import { echoApi } from '../../api/query/echoApi'
import { askSession, isAskSession } from '../../api/query/sessionPort'
import {
  missingMiddlewareMessage,
  missingReducersMessage,
  noSessionMessage,
  otherConfigMessage,
} from '../../api/query/setupMessages'
import { EchoSession, type SessionReporter } from '../../auth/EchoSession'
import { afterPaint, sessionEnvironment, type EchoEnvironment } from '../../auth/environment'
import { configKey, resolveConfig, unknownConfigKeys, type EchoConfig } from '../../config'
import {
  sessionReset,
  signedIn,
  signedOut,
  signInFailed,
  signInStarted,
  tokenRefreshed,
  tokenRefreshInterrupted,
  tokenRefreshStarted,
} from '../authSlice'
import type { EchoRootState } from '../echoReducer'
import type { Owned, StoreSession } from '../storeSession'
import { BalanceFollower } from './balanceFollower'
import { checkoutPaid } from '../moneySlice'
import { MoneyWatch } from './moneyWatch'

/**
 * Starts the store's Echo session with `config` (once; the same config again is a no-op). The
 * session middleware answers it; `<EchoProvider>` and `createEchoStore` dispatch it for you.
 */
export const startEchoSession = createAction<EchoConfig>('echo/startSession')
/** Stops the session's timers and listeners; it can be started again. */
export const stopEchoSession = createAction('echo/stopSession')

/** Options of {@link createEchoMiddleware}. */
export interface EchoMiddlewareOptions {
  /** Replaces parts of the browser the session uses (storage, fetch, timers, ...): for tests. */
  environment?: Partial<EchoEnvironment> | undefined
}

/**
 * The session middleware: each store's one session (never module-global: made at the first start,
 * kept for the store's life) and what the store builds on it, RTK Query's focus and reconnect
 * refetching, and the balance that follows the signed-in user.
 */
function createEchoSessionMiddleware({ environment: overrides }: EchoMiddlewareOptions = {}): Middleware {
  return (store) => {
    const dispatch = store.dispatch
    let session: EchoSession | undefined
    let environment: EchoEnvironment | undefined
    let stopListening: (() => void) | undefined
    /** What the store made on the session (the model router, the session fetch), and what stops it with the session. */
    const made = new Map<Owned<unknown>, unknown>()
    const stopHooks: (() => void)[] = []
    const balance = new BalanceFollower(dispatch, afterPaint)
    const money = new MoneyWatch(dispatch, () => store.getState() as EchoRootState)

    const owned = <T>(create: Owned<T>): T => {
      if (session === undefined || environment === undefined) throw new Error(noSessionMessage())
      if (!made.has(create))
        made.set(
          create,
          create({ session, environment, dispatch, money, owned, onStop: (hook) => stopHooks.push(hook) }),
        )
      return made.get(create) as T
    }
    /** The answer to the RTK Query layer's request for the session: `undefined` before it starts. */
    const answer = (): StoreSession | undefined =>
      session === undefined
        ? undefined
        : { session, money, owned, config: session.config, sendAuthorized: session.sendAuthorized }

    const start = (config: EchoConfig): EchoSession => {
      assertEchoReducers(store.getState())
      const resolved = resolveConfig(config)
      if (session !== undefined && configKey(session.config) !== configKey(resolved)) {
        throw new Error(otherConfigMessage(session.config.appId, session.config.apiUrl))
      }
      environment ??= sessionEnvironment(overrides)
      // Bundlers replace NODE_ENV, and drop the warning from production builds.
      if (session === undefined && process.env.NODE_ENV !== 'production')
        for (const warning of unknownConfigKeys(config)) environment.logWarning(warning)
      session ??= new EchoSession(resolved, sessionReports(dispatch, money), environment)
      money.use(environment, session.config)
      session.start()
      // Coming back to the page (focus, back online) refetches the balance.
      stopListening ??= typeof window === 'undefined' ? undefined : setupListeners(dispatch, listenToWindow)
      return session
    }
    const stop = () => {
      stopListening?.()
      stopListening = undefined
      for (const hook of stopHooks) hook()
      money.stop()
      session?.stop()
    }

    return (next) => (action) => {
      if (isAskSession(action)) return answer()
      if (startEchoSession.match(action)) return start(action.payload)
      if (stopEchoSession.match(action)) return stop()
      if (checkoutPaid.match(action)) return money.checkoutPaid()
      if (sessionReset.match(action)) {
        stop()
        stopHooks.length = 0
        made.clear()
        session = undefined
        environment = undefined
        const result = next(action)
        balance.reset()
        return result
      }
      balance.prepare(action as UnknownAction)
      const result = next(action)
      balance.follow(action as UnknownAction, session?.config.appId)
      money.follow(action as UnknownAction)
      return result
    }
  }
}

/** What the session reports, as the store's actions. */
function sessionReports(dispatch: Dispatch, money: MoneyWatch): SessionReporter {
  return {
    signInStarted: (inWindow) => dispatch(signInStarted(inWindow === true)),
    signedIn: (snapshot) => dispatch(signedIn(snapshot)),
    signInFailed: (error, arrivedBy) => dispatch(signInFailed(error, arrivedBy)),
    tokenRefreshStarted: () => dispatch(tokenRefreshStarted()),
    tokenRefreshed: (token) => dispatch(tokenRefreshed(token)),
    tokenRefreshInterrupted: () => dispatch(tokenRefreshInterrupted()),
    signedOut: (ended) => dispatch(signedOut(ended)),
    // Credits bought, here or in another tab: the balance is watched until they arrive.
    balanceChanged: (creditBefore) => money.checkoutPaid(creditBefore),
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

/** Whether a copy of `echoApi.middleware` has run in the store whose state this is. */
const isApiMiddlewareRegistered = (state: unknown): boolean =>
  Boolean(
    (state as Record<string, { config?: { middlewareRegistered?: unknown } } | undefined>)[echoApi.reducerPath]?.config
      ?.middlewareRegistered,
  )

/**
 * `echoApi.middleware`, then the session middleware, as one middleware. A store that lists
 * `echoApi.middleware` as well (as RTK Query users do for every API) must not run it twice. Every
 * copy of an API's middleware records itself in the API's state (`config.middlewareRegistered`)
 * on the first action it sees, so actions go on without the copy here until one has passed through
 * the whole store: if a copy listed apart has recorded itself by then, it does the work; if not,
 * the copy here runs from then on. (The first such action is echo-rtk's own: the session starts
 * before any call to Echo.) State preloaded with the flag set says nothing either way: the copy
 * here runs.
 */
function withEchoApiMiddleware(session: Middleware, { listedApart }: { listedApart: 'maybe' | 'never' }): Middleware {
  return (store) => {
    const api = echoApi.middleware(store as Parameters<typeof echoApi.middleware>[0])
    const sessionStep = session(store)
    return (next) => {
      const withoutApi = sessionStep(next)
      const withApi = api(withoutApi)
      if (listedApart === 'never') return withApi
      let runsApi: boolean | undefined
      let preloaded: boolean | undefined
      let passedThrough = false
      const undecided = sessionStep((action) => {
        passedThrough = true
        return next(action)
      })
      return (action) => {
        if (runsApi !== undefined || !isAction(action)) return (runsApi ? withApi : withoutApi)(action)
        preloaded ??= isApiMiddlewareRegistered(store.getState())
        passedThrough = false
        const result = undecided(action)
        if (runsApi === undefined && passedThrough) runsApi = preloaded || !isApiMiddlewareRegistered(store.getState())
        return result
      }
    }
  }
}

/**
 * Everything echo-rtk adds to a store's middleware, as one middleware: `echoApi.middleware` (unless
 * the store lists it too) and the session middleware. `echoMiddleware` is the default instance.
 */
export function createEchoMiddleware(options: EchoMiddlewareOptions = {}): EchoMiddleware {
  return withEchoApiMiddleware(createEchoSessionMiddleware(options), { listedApart: 'maybe' })
}

/**
 * The middleware of a store echo-rtk makes itself (`createEchoStore`), where nothing else lists `echoApi.middleware`.
 * @internal
 */
export function createOwnStoreMiddleware(options: EchoMiddlewareOptions = {}): EchoMiddleware {
  return withEchoApiMiddleware(createEchoSessionMiddleware(options), { listedApart: 'never' })
}

/** What `echoMiddleware` is: one Redux middleware, to `concat` with any others. */
export type EchoMiddleware = Middleware

/**
 * Add it to your store: `middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware)`,
 * or `.concat(otherApi.middleware, echoMiddleware)` beside an API of your own. Each store gets its own session from it.
 */
export const echoMiddleware: EchoMiddleware = /* @__PURE__ */ createEchoMiddleware()

/** Throws a message naming `echoReducers` when a store's state lacks them. */
export function assertEchoReducers(state: unknown): void {
  const slices = state as Record<string, unknown> | undefined
  if (slices?.echo === undefined || slices[echoApi.reducerPath] === undefined) throw new Error(missingReducersMessage())
}

/** Throws a message naming what to add when `store` lacks echo-rtk's reducers or its middleware. */
export function assertEchoStore(store: Pick<Store, 'getState' | 'dispatch'>): void {
  assertEchoReducers(store.getState())
  if (isAskSession(store.dispatch(askSession()))) throw new Error(missingMiddlewareMessage())
}
