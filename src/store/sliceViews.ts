import type { Reducer, UnknownAction } from '@reduxjs/toolkit'

import { authSlice as authSliceWithActions, type AuthState } from './authSlice'
import { balanceSlice as balanceSliceWithActions, type BalanceState } from './balanceSlice'

/**
 * One of echo-rtk's slices as apps see it: its name, reducer and initial state. Its action
 * creators stay inside (the session dispatches them; apps change the session through the thunks),
 * so no app code can sign a user in with a token Echo did not issue. Its actions are still seen by
 * type, by listeners and devtools.
 */
export interface EchoSliceView<State> {
  readonly name: string
  readonly reducerPath: string
  readonly reducer: Reducer<State, UnknownAction>
  readonly getInitialState: () => State
}

function viewOf<State>({ name, reducerPath, reducer, getInitialState }: EchoSliceView<State>): EchoSliceView<State> {
  return { name, reducerPath, reducer, getInitialState }
}

/** The auth slice (`echo/auth`, mounted at `echo.auth`), without its action creators. */
export const authSlice: EchoSliceView<AuthState> = /* @__PURE__ */ viewOf<AuthState>(authSliceWithActions)

/** The balance slice (`echo/balance`, mounted at `echo.balance`), without its action creators. */
export const balanceSlice: EchoSliceView<BalanceState> = /* @__PURE__ */ viewOf<BalanceState>(balanceSliceWithActions)
