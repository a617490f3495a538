import {
  combineReducers,
  configureStore,
  type EnhancedStore,
  type Reducer,
  type ThunkDispatch,
  type UnknownAction,
} from '@reduxjs/toolkit'

import type { EchoConfig } from '../config'
import { echoDevToolsOptions } from './devTools'
import { echoReducers, type EchoApiState, type EchoRootState, type EchoState } from './echoReducer'
import { createOwnStoreMiddleware, startEchoSession, type EchoMiddlewareOptions } from './middleware/echoMiddleware'

/** State a store may start from: any part of echo-rtk's state. */
export type PreloadedEchoState = Partial<{ echo: Partial<EchoState>; echoApi: EchoApiState }>

const rootReducer: Reducer<EchoRootState, UnknownAction, PreloadedEchoState> = combineReducers(echoReducers)

/** The store `createEchoStore` returns: its `dispatch` takes echo-rtk's thunks. */
export type EchoStore = EnhancedStore<EchoRootState> & {
  dispatch: ThunkDispatch<EchoRootState, unknown, UnknownAction>
}

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
export function createEchoStore({
  config,
  preloadedState,
  environment,
  startSession = typeof window !== 'undefined',
}: CreateEchoStoreOptions): EchoStore {
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(createOwnStoreMiddleware({ environment })),
    devTools: echoDevToolsOptions,
    ...(preloadedState === undefined ? {} : { preloadedState }),
  })
  if (startSession) store.dispatch(startEchoSession(config))
  return store
}
