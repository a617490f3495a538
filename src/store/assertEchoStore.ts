import type { Store } from '@reduxjs/toolkit'

import { echoApi } from '../api/query/echoApi'
import { getStoreSession, isGetStoreSession } from '../api/query/storeSession'
import { missingMiddlewareMessage, missingReducersMessage } from '../api/query/setupMessages'

/** Throws a message naming `echoReducers` when a store's state lacks them. */
export function assertEchoReducers(state: unknown): void {
  const slices = state as Record<string, unknown> | undefined
  if (slices?.echo === undefined || slices[echoApi.reducerPath] === undefined) throw new Error(missingReducersMessage())
}

/** Throws a message naming what to add when `store` lacks echo-rtk's reducers or its middleware. */
export function assertEchoStore(store: Pick<Store, 'getState' | 'dispatch'>): void {
  assertEchoReducers(store.getState())
  if (isGetStoreSession(store.dispatch(getStoreSession()))) throw new Error(missingMiddlewareMessage())
}
