import { createAction, isAction, type Middleware, type Store, type UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'
import { askSession, isAskSession } from '../../api/query/sessionPort'
import { missingMiddlewareMessage, missingReducersMessage, otherConfigMessage } from '../../api/query/setupMessages'
import type { PageSession } from '../../auth/pageSession'
import { sessionEnvironment, type EchoEnvironment } from '../../auth/environment'
import { configKey, resolveConfig, unknownConfigKeys, type EchoConfig } from '../../config'
import { sessionReset, signedOut } from '../authSlice'
import { isDevMoment } from '../dev/moments'
import { forgetMoments, playMoment, runtimeWithMoments } from '../dev/playMoments'
import { EchoRuntime } from '../EchoRuntime'
import { checkoutPaid } from '../money/moneySlice'

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
 * The session middleware: it routes actions to the store's one runtime (never module-global: made
 * at the first start, kept until the store's echo-rtk state is reset), which does the work.
 */
function createEchoSessionMiddleware({ environment: overrides }: EchoMiddlewareOptions = {}): Middleware {
  return (store) => {
    let runtime: EchoRuntime | undefined
    // The store's one listener middleware (store/run.ts), put in the chain by the runtime's money.
    let listening: ReturnType<Middleware> | undefined
    const runtimeStore = {
      dispatch: store.dispatch,
      getState: (): unknown => store.getState(),
      listenWith: (middleware: Middleware) => void (listening = middleware(store)),
    }

    const start = (config: EchoConfig): Promise<PageSession> => {
      assertEchoReducers(store.getState())
      const resolved = resolveConfig(config)
      if (runtime !== undefined && configKey(runtime.config) !== configKey(resolved)) {
        throw new Error(otherConfigMessage(runtime.config.appId, runtime.config.apiUrl))
      }
      if (runtime === undefined) {
        const environment = sessionEnvironment(overrides)
        // Bundlers replace NODE_ENV, and drop the warning and the moments from production builds.
        if (process.env.NODE_ENV !== 'production') {
          for (const warning of unknownConfigKeys(config)) environment.logWarning(warning)
          runtime = runtimeWithMoments(runtimeStore, resolved, environment)
        } else runtime = new EchoRuntime(runtimeStore, resolved, environment)
      }
      runtime.start()
      return runtime.ready
    }

    return (next) => {
      // Straight to the reducers until the listeners are there, then through them.
      let toReducers: (action: unknown) => unknown = next
      let through: ReturnType<Middleware> | undefined
      return (action) => {
        if (listening !== through) {
          through = listening
          toReducers = listening!(next)
        }
        return route(action, toReducers)
      }
    }

    function route(action: unknown, next: (action: unknown) => unknown): unknown {
      if (isAskSession(action)) return runtime
      if (startEchoSession.match(action)) return start(action.payload)
      if (stopEchoSession.match(action)) return runtime?.stop()
      if (checkoutPaid.match(action)) return runtime?.checkoutPaid()
      // A moment played from Redux DevTools (echoDevMoments): recorded there, played on the runtime. A production
      // build has none of this (its moments say so themselves, dev/moments.ts).
      if (process.env.NODE_ENV !== 'production' && isDevMoment(action)) {
        const result = next(action)
        if (runtime !== undefined) playMoment(runtime, action as UnknownAction, store.dispatch)
        return result
      }
      if (process.env.NODE_ENV !== 'production' && runtime !== undefined && signedOut.match(action))
        forgetMoments(runtime)
      if (sessionReset.match(action)) {
        const reset = runtime
        runtime = undefined
        reset?.stop()
        const result = next(action)
        store.dispatch(echoApi.util.resetApiState())
        return result
      }
      return next(action)
    }
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

/**
 * What `echoMiddleware` is: one Redux middleware, to `concat` with any others.
 *
 * @inline
 */
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
