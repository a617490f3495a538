import { combineReducers, configureStore } from '@reduxjs/toolkit'

import type { EchoConfig } from '../config'
import { echoDevToolsOptions } from './devTools'
import { echoReducers } from './echoReducer'
import { createEchoMiddleware, startEchoSession, type EchoMiddlewareOptions } from './sessionMiddleware'

const rootReducer = combineReducers(echoReducers)

/** State a store may start from: any part of echo-rtk's state. */
export type PreloadedEchoState = Parameters<typeof rootReducer>[0]

/** Options of {@link createEchoStore}. */
export interface CreateEchoStoreOptions extends EchoMiddlewareOptions {
  config: EchoConfig
  /** State to start from, e.g. a recorded `echo` slice in a test. */
  preloadedState?: PreloadedEchoState
  /**
   * Start the session at once (the default in a browser). `<EchoProvider>` passes `false` and starts
   * it after mount, so that React StrictMode's double render never builds two sessions.
   */
  startSession?: boolean
}

/**
 * A Redux store with echo-rtk's reducers, middleware and devtools redaction, its session started.
 * Starts with status `loading` until the session has read storage.
 *
 * @example
 * const store = createEchoStore({ config: { appId: 'your-app-id' } })
 * store.dispatch(signIn())
 */
export function createEchoStore({ config, preloadedState, environment, startSession = typeof window !== 'undefined' }: CreateEchoStoreOptions) {
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(createEchoMiddleware(environment === undefined ? {} : { environment })),
    devTools: echoDevToolsOptions,
    ...(preloadedState === undefined ? {} : { preloadedState }),
  })
  if (startSession) store.dispatch(startEchoSession(config))
  return store
}

/** The store `createEchoStore` returns. */
export type EchoStore = ReturnType<typeof createEchoStore>
