// An app with a Redux store of its own, tested as the README's testing section says: a store per
// test, or, for a suite that keeps the app's one module-level store, resetEchoStore after each.
// The tests of each describe run in order and lean on each other: that is the point.
import { configureStore, createSlice } from '@reduxjs/toolkit'
import { render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'

import { EchoBalance, EchoProvider, EchoSignIn, echoMiddleware, echoReducers, SignedIn } from 'echo-rtk'
import { clearEchoSession, echoFixtures, echoHandlers, resetEchoStore, seedEchoSession } from 'echo-rtk/testing'

import { server } from '../support/server'

const config = {
  appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
  apiUrl: 'https://echo.test',
  baseRouterUrl: 'https://router.echo.test',
}
const todos = createSlice({ name: 'todos', initialState: ['write tests'], reducers: {} })

/** The app's store, as its src/store.ts would make it. */
const makeStore = () =>
  configureStore({
    reducer: { ...echoReducers, todos: todos.reducer },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware),
  })

/** The app, given its store (its main.tsx passes the one it made). */
function App({ store }: { store: ReturnType<typeof makeStore> }) {
  return (
    <EchoProvider config={config} store={store}>
      <EchoSignIn />
      <SignedIn>
        <EchoBalance />
      </SignedIn>
    </EchoProvider>
  )
}

describe('a store per test', () => {
  afterEach(() => clearEchoSession())

  it('a signed-in user with $42.00', async () => {
    server.use(...echoHandlers({ ...config, balance: 42 }))
    seedEchoSession(config)
    render(<App store={makeStore()} />)
    expect(await screen.findByText('$42.00')).toBeDefined()
  })

  it('the next test starts signed out, with no balance from the last', () => {
    server.use(...echoHandlers(config))
    render(<App store={makeStore()} />)
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
    expect(screen.queryByText('$42.00')).toBeNull()
  })
})

describe('one module-level store for every test, reset after each with resetEchoStore', () => {
  const store = makeStore()
  afterEach(() => resetEchoStore(store))

  it('a signed-in user with $42.00', async () => {
    server.use(...echoHandlers({ ...config, balance: 42 }))
    seedEchoSession(config)
    render(<App store={store} />)
    expect(await screen.findByText('$42.00')).toBeDefined()
  })

  it('the next test starts signed out, with no balance from the last', () => {
    server.use(...echoHandlers(config))
    render(<App store={store} />)
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
    expect(screen.queryByText('$42.00')).toBeNull()
    expect(store.getState().echo.balance.balance).toBeNull()
  })

  it('the one after signs another user in, with their own balance and no other', async () => {
    const grace = { ...echoFixtures.userinfo, sub: 'user-2', name: 'Grace Hopper', email: 'grace@example.com' }
    server.use(...echoHandlers({ ...config, balance: 7, userinfo: grace }))
    seedEchoSession({ ...config, userinfo: grace })
    render(<App store={store} />)
    expect(await screen.findByText(/Signed in as Grace Hopper/)).toBeDefined()
    await waitFor(() => expect(screen.getByText('$7.00')).toBeDefined())
    // The app's own state is its own: resetEchoStore leaves it alone.
    expect(store.getState().todos).toEqual(['write tests'])
  })
})
