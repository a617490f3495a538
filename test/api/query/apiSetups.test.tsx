// Every documented way to mount echo-rtk in a store, in development mode (where Redux Toolkit and
// RTK Query run their own checks): no warning from either, a working useGetBalanceQuery(), and
// RTK Query's middleware for echoApi running once (a second copy would refetch twice).
import { configureStore, createSlice } from '@reduxjs/toolkit'
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react'
import { act, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'

import {
  EchoProvider,
  echoApi,
  echoMiddleware,
  echoReducer,
  echoReducers,
  useGetBalanceQuery,
  type EchoStore,
} from 'echo-rtk'
import { clearEchoSession, echoHandlers, seedEchoSession } from 'echo-rtk/testing'

import { server } from '../../support/server'

const config = {
  appId: '0b5e1b0c-3f7a-4d2e-9c8b-1a2b3c4d5e6f',
  apiUrl: 'https://echo.test',
  redirectUri: 'http://localhost:3000',
}

let warnings: MockInstance[]
beforeEach(() => {
  vi.stubEnv('NODE_ENV', 'development')
  warnings = [vi.spyOn(console, 'warn'), vi.spyOn(console, 'error')]
})
afterEach(() => {
  vi.unstubAllEnvs()
  clearEchoSession()
})

function Balance() {
  const { data } = useGetBalanceQuery()
  return <p>{data === undefined ? 'loading' : `balance ${data.balance}`}</p>
}

// An app's own slice and RTK Query API, as the store of a Redux app already has them.
const todos = createSlice({ name: 'todos', initialState: [] as string[], reducers: {} })
const jsonApi = createApi({
  reducerPath: 'jsonApi',
  baseQuery: fetchBaseQuery({ baseUrl: 'https://json.test' }),
  endpoints: (build) => ({ getTodos: build.query<string[], void>({ query: () => '/todos' }) }),
})

const setups: [string, () => EchoStore | undefined][] = [
  ['<EchoProvider config> alone, with a store of its own', () => undefined],
  [
    "the README's store: echoReducers and echoMiddleware",
    () =>
      configureStore({
        reducer: { ...echoReducers, todos: todos.reducer },
        middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware),
      }),
  ],
  [
    'a store with an API of its own: .concat(jsonApi.middleware, echoMiddleware)',
    () =>
      configureStore({
        reducer: { ...echoReducers, todos: todos.reducer, [jsonApi.reducerPath]: jsonApi.reducer },
        middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(jsonApi.middleware, echoMiddleware),
      }),
  ],
  [
    "the RTK Query habit: echoApi's reducer at echoApi.reducerPath, and echoApi.middleware listed before echoMiddleware",
    () =>
      configureStore({
        reducer: { echo: echoReducer, [echoApi.reducerPath]: echoApi.reducer },
        middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoApi.middleware, echoMiddleware),
      }),
  ],
  [
    'the RTK Query habit, echoApi.middleware listed after echoMiddleware',
    () =>
      configureStore({
        reducer: { echo: echoReducer, [echoApi.reducerPath]: echoApi.reducer },
        middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware).concat(echoApi.middleware),
      }),
  ],
]

describe('the RTK Query API in every documented store setup', () => {
  it.each(setups)(
    '%s: no warning, the query hook answers after one request, and a refetch sends one more',
    async (_setup, makeStore) => {
      const echo = echoHandlers({ ...config, balance: 42 })
      server.use(...echo)
      seedEchoSession(config)
      const store = makeStore()
      const rendered = render(
        <EchoProvider config={config} {...(store === undefined ? {} : { store })}>
          <Balance />
        </EchoProvider>,
      )
      await waitFor(() => expect(screen.getByText('balance 42')).toBeDefined())
      const balanceRequests = () => echo.requests.filter((request) => request.path === '/api/v1/balance').length
      // The session's own balance follow-up and the hook share one cache entry: one request.
      expect(balanceRequests()).toBe(1)
      if (store !== undefined) {
        // Tag invalidation is the API middleware's work: a second copy of it would send a second refetch.
        echo.set({ balance: 43 })
        act(() => void store.dispatch(echoApi.util.invalidateTags(['Balance'])))
        await waitFor(() => expect(screen.getByText('balance 43')).toBeDefined())
        await new Promise((resolve) => setTimeout(resolve, 50))
        expect(balanceRequests()).toBe(2)
      }
      rendered.unmount()
      for (const spy of warnings) expect(spy).not.toHaveBeenCalled()
    },
  )
})
