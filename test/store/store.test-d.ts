import { configureStore, type SerializedError } from '@reduxjs/toolkit'
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react'
import { expectTypeOf, test } from 'vitest'

import {
  createEchoStore,
  echoApi,
  echoMiddleware,
  echoReducer,
  echoReducers,
  refreshBalance,
  selectAuthStatus,
  selectBalance,
  selectEchoUser,
  useGetBalanceQuery,
  type AuthState,
  type Balance,
  type EchoApiState,
  type EchoErrorData,
  type EchoState,
  type EchoUser,
} from 'echo-rtk'
import type { EchoMiddleware } from '../../src/store/middleware/echoMiddleware'

test('the auth status is a closed union, never any', () => {
  expectTypeOf(selectAuthStatus).returns.toEqualTypeOf<'loading' | 'unauthenticated' | 'authenticated'>()
  expectTypeOf<AuthState['error']>().toEqualTypeOf<EchoErrorData | null>()
  expectTypeOf(selectEchoUser).returns.toEqualTypeOf<EchoUser | null>()
})

test('the balance is the wire shape', () => {
  expectTypeOf(selectBalance).returns.toEqualTypeOf<Balance | null>()
  // Type tests are compiled, never run: calling the hook here only asks for its types.
  const query = useGetBalanceQuery()
  expectTypeOf(query.data).toEqualTypeOf<Balance | undefined>()
  expectTypeOf(query.error).toEqualTypeOf<EchoErrorData | SerializedError | undefined>()
})

test("the store's dispatch takes echo-rtk's thunks and returns their promise", () => {
  const store = createEchoStore({ config: { appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f57' }, startSession: false })
  expectTypeOf(store.dispatch(refreshBalance())).toEqualTypeOf<Promise<Balance>>()
  expectTypeOf(store.getState().echo.auth.status).toEqualTypeOf<AuthState['status']>()
})

test('echoMiddleware is one middleware: it concats beside an API of your own, in any order, and the store keeps its types', () => {
  const jsonApi = createApi({
    reducerPath: 'jsonApi',
    baseQuery: fetchBaseQuery({ baseUrl: 'https://json.test' }),
    endpoints: (build) => ({ getTodos: build.query<string[], void>({ query: () => '/todos' }) }),
  })
  const store = configureStore({
    reducer: { ...echoReducers, [jsonApi.reducerPath]: jsonApi.reducer, todos: (state: string[] = []) => state },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(jsonApi.middleware, echoMiddleware),
  })
  expectTypeOf(store.getState().todos).toEqualTypeOf<string[]>()
  expectTypeOf(store.getState().echo).toEqualTypeOf<EchoState>()
  expectTypeOf(store.dispatch(refreshBalance())).toEqualTypeOf<Promise<Balance>>()
  const habit = configureStore({
    reducer: { echo: echoReducer, [echoApi.reducerPath]: echoApi.reducer },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().prepend(echoMiddleware).concat(echoApi.middleware),
  })
  expectTypeOf(habit.getState().echoApi).toEqualTypeOf<EchoApiState>()
  expectTypeOf(echoMiddleware).toEqualTypeOf<EchoMiddleware>()
})
