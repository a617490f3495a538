import { combineReducers, type Reducer, type UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../api/query/echoApi'
import { authSlice, signedIn, type AuthState } from './authSlice'
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

const echoSlices = combineReducers({
  auth: authSlice.reducer,
  balance: balanceSlice.reducer,
  money: moneySlice.reducer,
})

/**
 * The auth, balance and money slices; mount it at `echo`. A sign-in of another user (from another tab,
 * say) starts from no money: no state ever pairs the new user with the last user's balance or spend.
 */
export const echoReducer: Reducer<EchoState, UnknownAction, Partial<EchoState>> = (state, action) =>
  echoSlices(isAnotherUser(state, action) ? { auth: state!.auth! } : state, action)

/** Whether `action` signs in someone else than the user `state` holds. */
const isAnotherUser = (state: Partial<EchoState> | undefined, action: UnknownAction): boolean =>
  signedIn.match(action) && state?.auth?.user != null && state.auth.user.id !== action.payload.user.id

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
