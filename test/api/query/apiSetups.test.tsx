// Every documented way to mount echo-rtk in a store, in development mode (where Redux Toolkit and
// RTK Query run their own checks): no warning from either, and a working useGetBalanceQuery().
import { configureStore } from '@reduxjs/toolkit'
import { render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'

import { EchoProvider, echoApi, echoMiddleware, echoReducer, echoReducers, useGetBalanceQuery, type EchoStore } from 'echo-rtk'
import { clearEchoSession, echoHandlers, seedEchoSession } from 'echo-rtk/testing'

import { server } from '../../support/server'

const config = { appId: 'app-123', apiUrl: 'https://echo.test', redirectUri: 'http://localhost:3000' }

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

const setups: [string, () => EchoStore | undefined][] = [
  ['<EchoProvider> with a store of its own', () => undefined],
  [
    'your store, as the README sets it up: echoReducers and echoMiddleware',
    () =>
      configureStore({
        reducer: { ...echoReducers, todos: (state: string[] = []) => state },
        middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware),
      }),
  ],
  [
    "your store, by RTK Query habit: echoApi's reducer at its reducerPath and its middleware, as well",
    () =>
      configureStore({
        reducer: { echo: echoReducer, [echoApi.reducerPath]: echoApi.reducer },
        middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware).concat(echoApi.middleware),
      }),
  ],
]

describe('the RTK Query API in every documented store setup', () => {
  it.each(setups)('%s: no warning from Redux Toolkit or RTK Query, and the query hook answers after one request', async (_setup, makeStore) => {
    const echo = echoHandlers({ ...config, balance: 42 })
    server.use(...echo)
    seedEchoSession(config)
    const store = makeStore()
    render(
      <EchoProvider config={config} {...(store === undefined ? {} : { store })}>
        <Balance />
      </EchoProvider>,
    )
    await waitFor(() => expect(screen.getByText('balance 42')).toBeDefined())
    // The session's own balance follow-up and the hook share one cache entry: one request.
    expect(echo.requests.filter((request) => request.path === '/api/v1/balance')).toHaveLength(1)
    for (const spy of warnings) expect(spy).not.toHaveBeenCalled()
  })
})
