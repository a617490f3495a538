// An app's code against the built echo-rtk, type-checked by scripts/peerMatrix.mjs on each
// combination of peers: the setups the README shows, the hooks and the thunks, as an app writes
// them. It only has to compile; the tests run the same setups.
import { configureStore } from '@reduxjs/toolkit'
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react'
import { useSelector } from 'react-redux'

import {
  EchoAccount,
  EchoProvider,
  createEchoStore,
  echoApi,
  echoDevToolsOptions,
  echoMiddleware,
  echoReducer,
  echoReducers,
  refreshBalance,
  selectBalance,
  useEcho,
  useGetBalanceQuery,
  useGetFreeBalanceQuery,
  type Balance,
  type EchoRootState,
} from 'echo-rtk'

/** Compiles only when `T` is a real type: a type that fell back to `any` on these peers fails the check. */
type Known<T> = 0 extends 1 & T ? never : T
function known<T>(value: Known<T>): T {
  return value
}

const config = { appId: '60601628-cdb7-481e-8f7e-921981220348' }
const jsonApi = createApi({
  reducerPath: 'jsonApi',
  baseQuery: fetchBaseQuery({ baseUrl: '/api' }),
  endpoints: (build) => ({ getTodos: build.query<string[], void>({ query: () => '/todos' }) }),
})

export const store = configureStore({
  reducer: { ...echoReducers, [jsonApi.reducerPath]: jsonApi.reducer, todos: (state: string[] = []) => state },
  middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(jsonApi.middleware, echoMiddleware),
  devTools: echoDevToolsOptions,
})
export const habitStore = configureStore({
  reducer: { echo: echoReducer, [echoApi.reducerPath]: echoApi.reducer },
  middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoApi.middleware, echoMiddleware),
})
export const ownStore = createEchoStore({ config })
export const refreshed: Promise<Balance> = known(ownStore.dispatch(refreshBalance()))
export const echoState = known(store.getState().echo)
export const apiState = known(store.getState().echoApi)
export const initiated = known(store.dispatch(echoApi.endpoints.getBalance.initiate()))

type RootState = ReturnType<typeof store.getState>
const paid = (state: RootState): number | undefined => selectBalance(state satisfies EchoRootState)?.balance

function Credits() {
  const { user, status, credit } = useEcho()
  const { data } = useGetBalanceQuery()
  const free = useGetFreeBalanceQuery()
  const fromStore = useSelector(paid)
  const total: number | undefined = known(data)?.balance
  known(free.data)
  known(credit)
  return (
    <p>
      {status} {user?.name} {credit} {total} {free.data?.userSpendInfo.amountLeft} {fromStore}
    </p>
  )
}

export function App() {
  return (
    <EchoProvider config={config} store={store}>
      <EchoAccount />
      <Credits />
    </EchoProvider>
  )
}
