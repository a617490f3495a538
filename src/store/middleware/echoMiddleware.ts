import { createAction, type Middleware, type UnknownAction } from '@reduxjs/toolkit'

import { sessionEchoApi } from '../../api/query/sessionEchoApi'
import type { EchoEnvironment } from '../../auth/environment'
import type { EchoConfig } from '../../config'
import { assertEchoReducers } from '../assertEchoStore'
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
      balance.prepare(action as UnknownAction)
      const result = next(action)
      balance.follow(action as UnknownAction, lifecycle.session?.config.appId)
      return result
    }
  }
}

/**
 * Everything echo-rtk adds to a store's middleware: the RTK Query middleware and the session
 * middleware. `echoMiddleware` is the default instance.
 */
export function createEchoMiddleware(options: EchoMiddlewareOptions = {}): EchoMiddleware {
  return [sessionEchoApi.middleware as Middleware, createEchoSessionMiddleware(options)]
}

/** What `echoMiddleware` is: the RTK Query middleware, then the session middleware. */
export type EchoMiddleware = readonly [Middleware, Middleware]

/**
 * Add it to your store: `middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware)`.
 * Each store gets its own session from it.
 */
export const echoMiddleware = /* @__PURE__ */ createEchoMiddleware()
