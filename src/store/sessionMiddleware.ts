import { createAction, type Dispatch, type Middleware, type UnknownAction } from '@reduxjs/toolkit'
import { setupListeners } from '@reduxjs/toolkit/query/react'

import { sessionEchoApi } from '../api/echoApi'
import { isGetEchoSession } from '../api/echoSessionPort'
import { EchoSession, type SessionReporter } from '../auth/EchoSession'
import { sessionEnvironment, type EchoEnvironment } from '../auth/environment'
import { resolveConfig, type EchoConfig, type ResolvedEchoConfig } from '../config'
import { signedIn, signedOut, signInFailed, signInStarted, tokenRefreshed, tokenRefreshStarted } from './authSlice'
import { assertEchoReducers } from './assertEchoStore'
import { BalanceFollower } from './balanceFollower'

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
 * The session middleware alone: it owns the store's one `EchoSession` (never module-global),
 * answers `getEchoSession()` with it, and keeps the balance loaded while someone is signed in.
 */
function createEchoSessionMiddleware({ environment }: EchoMiddlewareOptions = {}): Middleware {
  return (store) => {
    let session: EchoSession | undefined
    let env: EchoEnvironment | undefined
    let stopFocusListeners: (() => void) | undefined
    const balance = new BalanceFollower(store.dispatch)
    const report = sessionReporter(store.dispatch)

    const start = (config: ResolvedEchoConfig): EchoSession => {
      if (session !== undefined && !sameConfig(session.config, config)) {
        const belongs = `echo-rtk: this store's Echo session belongs to app ${session.config.appId} at ${session.config.apiUrl}; it cannot switch to another config`
        throw new Error(process.env.NODE_ENV === 'production' ? belongs : `${belongs}. Create another store (or give <EchoProvider> a new key) for another app`)
      }
      env ??= sessionEnvironment(environment)
      session ??= new EchoSession(config, report, env)
      session.start()
      stopFocusListeners ??= typeof window === 'undefined' ? undefined : setupListeners(store.dispatch)
      return session
    }

    return (next) => (action) => {
      if (isGetEchoSession(action)) return session
      if (startEchoSession.match(action)) {
        assertEchoReducers(store.getState())
        return start(resolveConfig(action.payload))
      }
      if (stopEchoSession.match(action)) {
        stopFocusListeners?.()
        stopFocusListeners = undefined
        return session?.stop()
      }
      balance.prepare(action as UnknownAction)
      const result = next(action)
      balance.follow(action as UnknownAction, session?.appId)
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

function sessionReporter(dispatch: Dispatch): SessionReporter {
  return {
    signInStarted: () => dispatch(signInStarted()),
    signedIn: (snapshot) => dispatch(signedIn(snapshot)),
    signInFailed: (error) => dispatch(signInFailed(error)),
    tokenRefreshStarted: () => dispatch(tokenRefreshStarted()),
    tokenRefreshed: (token) => dispatch(tokenRefreshed(token)),
    signedOut: (ended) => dispatch(signedOut(ended)),
    balanceChanged: () => dispatch(sessionEchoApi.util.invalidateTags(['Balance'])),
  }
}

/** Resolved configs hold the same five strings in the same order (resolveConfig builds them). */
function sameConfig(a: ResolvedEchoConfig, b: ResolvedEchoConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
