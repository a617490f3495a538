import type { Store } from '@reduxjs/toolkit'

import { sessionEchoApi } from '../api/echoApi'
import { getEchoSession, isGetEchoSession, missingMiddlewareMessage, STORE_SETUP } from '../api/echoSessionPort'

/** The message for a store without echo-rtk's reducers. */
function missingReducersMessage(): string {
  return process.env.NODE_ENV === 'production'
    ? 'echo-rtk: this store has no echo reducers'
    : `echo-rtk: this store has no echo reducers. Add them: ${STORE_SETUP}`
}

/** Throws a message naming `echoReducers` when a store's state lacks them. */
export function assertEchoReducers(state: unknown): void {
  const slices = state as Record<string, unknown> | undefined
  if (slices?.echo === undefined || slices[sessionEchoApi.reducerPath] === undefined) throw new Error(missingReducersMessage())
}

/** Throws a message naming what to add when `store` lacks echo-rtk's reducers or its middleware. */
export function assertEchoStore(store: Pick<Store, 'getState' | 'dispatch'>): void {
  assertEchoReducers(store.getState())
  if (isGetEchoSession(store.dispatch(getEchoSession()))) throw new Error(missingMiddlewareMessage())
}
