import { combineReducers, type Reducer, type UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../api/query/echoApi'
import { authSlice, type AuthState } from './authSlice'
import { balanceSlice, type BalanceState } from './balanceSlice'
import { moneySlice, type MoneyState } from './money/moneySlice'

/** echo-rtk's own state, mounted at `echo`. */
export interface EchoState {
  auth: AuthState
  balance: BalanceState
  money: MoneyState
}

/** The API cache of `echoApi`, mounted at `echoApi`. */
export type EchoApiState = ReturnType<typeof echoApi.reducer>

/** The auth, balance and money slices; mount it at `echo`. */
export const echoReducer: Reducer<EchoState, UnknownAction, Partial<EchoState>> = combineReducers({
  auth: authSlice.reducer,
  balance: balanceSlice.reducer,
  money: moneySlice.reducer,
})

/**
 * Both reducers echo-rtk needs, under the keys it expects: spread them into your store's reducer.
 *
 * @example
 * configureStore({ reducer: { ...echoReducers, todos }, middleware: (gDM) => gDM().concat(echoMiddleware) })
 */
export const echoReducers: {
  echo: Reducer<EchoState, UnknownAction, Partial<EchoState>>
  echoApi: Reducer<EchoApiState, UnknownAction>
} = { echo: echoReducer, [echoApi.reducerPath]: echoApi.reducer }

/** The part of a store's state that echo-rtk owns. Your `RootState` extends it. */
export interface EchoRootState {
  echo: EchoState
  echoApi: EchoApiState
}
