import { createAction, isAction, type Middleware, type UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'
import type { EchoEnvironment } from '../../auth/environment'
import type { EchoConfig } from '../../config'
import { assertEchoReducers } from '../assertEchoStore'
import { isSessionReset } from '../sessionReset'
import { BalanceFollower } from './balanceFollower'
import { focusRefetch } from './focusRefetch'
import { sessionLifecycle } from './sessionLifecycle'
import { isGetStoreSession } from '../../api/query/storeSession'
import { storeSessions } from './storeSessions'

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
 * The session middleware: each store's own session and what is built on it, composed of one
 * handler per job (`sessionLifecycle`, `focusRefetch`, `storeSessions`, `balanceFollower`).
 */
function createEchoSessionMiddleware({ environment }: EchoMiddlewareOptions = {}): Middleware {
  return (store) => {
    const lifecycle = sessionLifecycle(store.dispatch, environment)
    const focus = focusRefetch(store.dispatch)
    const sessions = storeSessions(store.dispatch, () => lifecycle)
    const balance = new BalanceFollower(store.dispatch)

    return (next) => (action) => {
      if (isGetStoreSession(action)) return sessions.answer()
      if (startEchoSession.match(action)) {
        assertEchoReducers(store.getState())
        const session = lifecycle.start(action.payload)
        focus.start()
        return session
      }
      if (stopEchoSession.match(action)) {
        focus.stop()
        sessions.stop()
        return lifecycle.stop()
      }
      if (isSessionReset(action)) {
        focus.stop()
        sessions.reset()
        lifecycle.reset()
        const result = next(action)
        balance.reset()
        return result
      }
      balance.prepare(action as UnknownAction)
      const result = next(action)
      balance.follow(action as UnknownAction, lifecycle.session?.config.appId)
      return result
    }
  }
}

/** Whether a copy of `echoApi.middleware` has run in the store whose state this is. */
const isApiMiddlewareRegistered = (state: unknown): boolean =>
  Boolean((state as Record<string, { config?: { middlewareRegistered?: unknown } } | undefined>)[echoApi.reducerPath]?.config?.middlewareRegistered)

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

/** The middleware of a store echo-rtk makes itself (`createEchoStore`), where nothing else lists `echoApi.middleware`. @internal */
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
