// @vitest-environment jsdom
import { configureStore, type Middleware, type UnknownAction } from '@reduxjs/toolkit'
import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  createPaymentLink,
  EchoError,
  getEchoFetch,
  insufficientFundsDetected,
  echoApi,
  echoMiddleware,
  echoReducers,
  refreshBalance,
  signOut,
  startEchoSession,
  stopEchoSession,
  type EchoRootState,
} from 'echo-rtk'
import { echoFixtures } from 'echo-rtk/testing'

import { signedIn, signedOut } from '../../src/store/authSlice'
import { CONFIG, echoStoresPerTest, sessionOf } from '../support/echoStores'
import { ECHO, sentTo, serveEcho } from '../support/testEcho'

const { newStore, signInThroughEcho } = echoStoresPerTest()
const hostStores: { dispatch(action: UnknownAction): unknown }[] = []
afterEach(() => {
  for (const store of hostStores.splice(0)) store.dispatch(stopEchoSession())
})

const todos = (state: string[] = [], action: UnknownAction) =>
  action.type === 'todos/added' ? [...state, String(action.payload)] : state

/** A host app's own store, set up by hand the way the README says. */
function hostStore(extra: Middleware[] = []) {
  const store = configureStore({
    reducer: { ...echoReducers, todos },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware).concat(extra),
  })
  hostStores.push(store)
  return store
}

describe('a host store with echoReducers and echoMiddleware', () => {
  it('runs the session and the API next to its own state', async () => {
    serveEcho()
    await signInThroughEcho()
    const store = hostStore()
    store.dispatch(startEchoSession(CONFIG))
    store.dispatch({ type: 'todos/added', payload: 'write tests' })
    expect(store.getState().echo.auth.status).toBe('authenticated')
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(12.5))
    expect(store.getState().todos).toEqual(['write tests'])
  })

  it('starting the same session twice is a no-op; another config is refused clearly', () => {
    serveEcho()
    const store = hostStore()
    const first = store.dispatch(startEchoSession(CONFIG))
    expect(store.dispatch(startEchoSession({ ...CONFIG }))).toBe(first)
    expect(() =>
      store.dispatch(startEchoSession({ ...CONFIG, appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f52' })),
    ).toThrow(
      /this store's Echo session belongs to app 2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50 at https:\/\/echo\.test; it cannot switch to another config/,
    )
  })

  it('a store without echoMiddleware gets an error that names what to add', async () => {
    const store = configureStore({
      reducer: echoReducers,
      middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoApi.middleware),
    })
    const result = await store.dispatch(echoApi.endpoints.getBalance.initiate())
    expect(result.error?.message).toContain(
      'this store has no echoMiddleware. Add it: configureStore({ reducer: { ...echoReducers }, middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware) })',
    )
  })

  it('a store without the echo reducers is refused with a message that names them', () => {
    const store = configureStore({
      reducer: { todos },
      middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware),
    })
    expect(() => store.dispatch(startEchoSession(CONFIG))).toThrow(
      'echo-rtk: this store has no echo reducers. Add them: configureStore({ reducer: { ...echoReducers }',
    )
  })

  it('a store whose session was never started says how to start it', async () => {
    const store = hostStore()
    const result = await store.dispatch(echoApi.endpoints.getBalance.initiate())
    expect(result.error?.message).toContain('this store has no Echo session yet')
  })
})

describe('stores', () => {
  it('two stores in one page never share a session', async () => {
    serveEcho()
    const first = await signInThroughEcho()
    const second = newStore()
    expect(sessionOf(first)).not.toBe(sessionOf(second))
    expect(sessionOf(first).coordinator).not.toBe(sessionOf(second).coordinator)
    await first.dispatch(signOut())
    expect(first.getState().echo.auth.status).toBe('unauthenticated')
    expect(second.getState().echo.auth.status).toBe('authenticated')
  })

  it('keep the refresh token out of the state', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    expect(JSON.stringify(store.getState())).not.toMatch(/refresh-\d/)
    expect(store.getState().echo.auth.accessToken).toBe('test-access-1')
  })
})

describe('balance', () => {
  it('loads by itself once signed in: the balance and the free tier', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    expect(store.getState().echo.balance).toMatchObject({
      balance: { balance: 12.5, currency: 'USD' },
      freeTierBalance: {
        spendPoolBalance: echoFixtures.freeTierBalance.spendPoolBalance,
        userSpendInfo: { echoAppId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', amountLeft: -1 },
      },
      status: 'succeeded',
      error: null,
    })
  })

  it('is cleared with the API cache on sign-out, so the next user never sees it', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    await store.dispatch(signOut())
    expect(store.getState().echo.balance).toEqual({
      balance: null,
      freeTierBalance: null,
      freeTierStatus: 'idle',
      status: 'idle',
      error: null,
      paymentError: null,
      isInsufficientFunds: false,
    })
    expect(store.getState().echoApi.queries).toEqual({})
  })

  it('refreshBalance() refetches on demand and resolves to the new balance', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const requestsBefore = sentTo(echo, '/api/v1/balance').length
    echo.set({ balance: 40 })
    await expect(store.dispatch(refreshBalance())).resolves.toMatchObject({ balance: 40 })
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(requestsBefore + 1)
    expect(store.getState().echo.balance.balance?.balance).toBe(40)
  })

  it('out of credits stays until credit really returns: more than $0.0001 paid or free (what a 402 can leave)', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    store.dispatch(insufficientFundsDetected())
    echo.set({ balance: 0.0001 })
    await store.dispatch(refreshBalance())
    expect(store.getState().echo.balance.isInsufficientFunds).toBe(true)
    echo.set({ balance: -0.02 })
    await store.dispatch(refreshBalance())
    expect(store.getState().echo.balance.isInsufficientFunds).toBe(true)
    echo.set({ balance: 0.5 })
    await store.dispatch(refreshBalance())
    expect(store.getState().echo.balance.isInsufficientFunds).toBe(false)
  })

  it('a user who signs in and out again at once never has their balance asked for (it would be dropped unseen)', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const before = { paid: sentTo(echo, '/api/v1/balance').length }
    store.dispatch(
      signedIn({
        user: { id: 'user-2', email: null, name: 'Grace', picture: null },
        accessToken: 'access-g',
        expiresAt: Date.now() + 60_000,
      }),
    )
    store.dispatch(signedOut({ by: 'user' }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(before.paid)
    expect(store.getState().echo.balance).toMatchObject({ balance: null, status: 'idle' })
  })

  it("out of credits stays while the user has free tier left but the app's pool is spent (the router draws from the pool)", async () => {
    const echo = serveEcho({ freeTier: 0.5, spendPool: 0 })
    const store = await signInThroughEcho()
    echo.set({ balance: 0 })
    store.dispatch(insufficientFundsDetected())
    await store.dispatch(refreshBalance())
    await vi.waitFor(() => expect(store.getState().echo.balance.freeTierBalance?.spendPoolBalance).toBe(0))
    expect(store.getState().echo.balance.isInsufficientFunds).toBe(true)
    echo.set({ spendPool: 20 })
    await store.dispatch(refreshBalance())
    await vi.waitFor(() => expect(store.getState().echo.balance.isInsufficientFunds).toBe(false))
  })

  it('out of credits is judged on fresh figures only: a paid balance answered first is not cleared by the free tier known before the 402', async () => {
    const echo = serveEcho({ freeTier: 0.9 })
    const store = await signInThroughEcho()
    await vi.waitFor(() => expect(store.getState().echo.balance.freeTierBalance?.userSpendInfo.amountLeft).toBe(0.9))
    // The router drew the free tier to nothing and answered 402; the balance refetch comes back in two halves.
    echo.set({ balance: 0.0001, freeTier: 0 })
    const freeTier = echo.hold('freeBalance')
    store.dispatch(insufficientFundsDetected())
    const refreshing = store.dispatch(refreshBalance())
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(0.0001))
    expect(store.getState().echo.balance.isInsufficientFunds).toBe(true)
    freeTier.release()
    await refreshing
    expect(store.getState().echo.balance.isInsufficientFunds).toBe(true)
  })

  it('refreshBalance() rejects, never resolves undefined, when the user signs out while it runs', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const balance = echo.hold('balance')
    const refreshing = store.dispatch(refreshBalance())
    await balance.reached
    await store.dispatch(signOut())
    balance.release()
    await expect(refreshing).rejects.toMatchObject({
      name: 'EchoError',
      message: 'Not authenticated while fetching balance',
    })
  })

  it('refreshBalance() rejects, never resolves undefined, when its 401 cannot be cured', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const echo = serveEcho({ expiresInSeconds: 15 })
    const store = await signInThroughEcho()
    echo.set({ refuseRefresh: true })
    vi.setSystemTime(Date.now() + 16_000)
    const failure: unknown = await store.dispatch(refreshBalance()).catch((error: unknown) => error)
    vi.useRealTimers()
    expect(failure).toBeInstanceOf(EchoError)
    expect(store.getState().echo.auth.status).toBe('unauthenticated')
  })

  it('refreshBalance() and createPaymentLink() reject with Not authenticated when nobody is signed in', async () => {
    const store = newStore()
    await expect(store.dispatch(refreshBalance())).rejects.toMatchObject({
      name: 'EchoError',
      reason: 'not-authenticated',
      message: 'Not authenticated',
    })
    await expect(store.dispatch(createPaymentLink({ amount: 10 }))).rejects.toMatchObject({
      name: 'EchoError',
      message: 'Not authenticated',
    })
  })

  it('a payment link resolves to its URL and marks the balance stale, so it is fetched again', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const requestsBefore = sentTo(echo, '/api/v1/balance').length
    await expect(store.dispatch(createPaymentLink({ amount: 25 }))).resolves.toBe('https://checkout.echo.test/link-1')
    await vi.waitFor(() => expect(sentTo(echo, '/api/v1/balance')).toHaveLength(requestsBefore + 1))
  })

  it('a payment amount below 1 is refused before any request, as an EchoError', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    await expect(store.dispatch(createPaymentLink({ amount: 0.5 }))).rejects.toMatchObject({
      name: 'EchoError',
      message: 'The payment amount must be a finite number of US dollars, at least 1 (got 0.5)',
    })
    expect(sentTo(echo, '/api/v1/stripe/payment-link')).toHaveLength(0)
  })
})

describe('devtools', () => {
  it('every action of sign-in, refresh and sign-out is serializable: RTK reports nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const complaints = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')]
    serveEcho({ expiresInSeconds: 15 })
    const store = await signInThroughEcho()
    vi.setSystemTime(Date.now() + 16_000)
    await sessionOf(store).getToken()
    await store.dispatch(signOut())
    vi.useRealTimers()
    for (const complaint of complaints) expect(complaint).not.toHaveBeenCalled()
  })

  it('replaying a recorded action log onto a fresh store reproduces the same auth states', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const log: UnknownAction[] = []
    const authStates: unknown[] = []
    const recorder: Middleware = (api) => (next) => (action) => {
      const result = next(action)
      log.push(JSON.parse(JSON.stringify(action)) as UnknownAction)
      authStates.push((api.getState() as EchoRootState).echo.auth)
      return result
    }
    serveEcho({ expiresInSeconds: 15 })
    await signInThroughEcho()
    const store = hostStore([recorder])
    store.dispatch(startEchoSession(CONFIG))
    vi.setSystemTime(Date.now() + 16_000)
    await sessionOf(store).getToken()
    await store.dispatch(signOut())
    vi.useRealTimers()
    expect(log.map((action) => action.type)).toEqual(
      expect.arrayContaining([
        'echo/auth/signedIn',
        'echo/auth/tokenRefreshStarted',
        'echo/auth/tokenRefreshed',
        'echo/auth/signedOut',
      ]),
    )

    const replayed = configureStore({ reducer: echoReducers })
    const replayedStates = log.map((action) => {
      replayed.dispatch(action)
      return replayed.getState().echo.auth
    })
    expect(replayedStates).toEqual(authStates)
  })
})

describe('coming back to the page', () => {
  it('refetches the balance, so a top-up paid in another tab shows', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const before = sentTo(echo, '/api/v1/balance').length
    echo.set({ balance: 60 })
    window.dispatchEvent(new Event('focus'))
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(60))
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(before + 1)
  })
})

describe('getEchoFetch()', () => {
  it("asks the store for it with a plain action: Redux Toolkit's serializability check stays quiet", () => {
    const warnings = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const store = newStore()
    store.dispatch(getEchoFetch())
    expect(warnings).not.toHaveBeenCalled()
  })

  it("is the session's one fetch: stable, nothing sent signed out, the token only to the API and the router", async () => {
    const store = newStore()
    const echoFetch = store.dispatch(getEchoFetch())
    expect(store.dispatch(getEchoFetch())).toBe(echoFetch)
    await expect(echoFetch(`${ECHO}/api/v1/balance`)).rejects.toMatchObject({
      name: 'EchoError',
      message: 'Not authenticated',
    })
    await expect(echoFetch('https://api.openai.com/v1/models')).rejects.toMatchObject({
      message:
        "Refusing to send the user's Echo token to https://api.openai.com: it goes only to https://echo.test and https://echo.router.merit.systems. Set your model client's baseURL to the Echo router",
    })
    serveEcho()
    const signedIn = await signInThroughEcho()
    const response = await signedIn.dispatch(getEchoFetch())(`${ECHO}/api/v1/balance`)
    expect(await response.json()).toMatchObject({ balance: 12.5 })
  })
})
