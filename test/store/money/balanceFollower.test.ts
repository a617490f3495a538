// @vitest-environment jsdom
// The balance kept loaded while someone is signed in: asked for once the signed-in page has painted,
// asked again when new tokens end an outage, and dropped with the store's stop: a stopped store asks
// nothing, and a store started again follows the user again.
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { signIn, startEchoSession, stopEchoSession, type EchoStore } from 'echo-rtk'
import type { EchoEnvironment } from 'echo-rtk/testing'
import { configureStore, type UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../../src/api/query/echoApi'
import { signedIn, tokenRefreshed } from '../../../src/store/authSlice'
import { echoReducer, echoReducers } from '../../../src/store/echoReducer'
import { balanceAskedAgain } from '../../../src/store/money/balanceAskedAgain'
import { BalanceFollower } from '../../../src/store/money/balanceFollower'
import { CONFIG, echoStoresPerTest, paintQueue, sessionOf } from '../../support/echoStores'
import { echoRuns } from '../../support/echoRuns'
import { server } from '../../support/server'
import { backFromEcho, ECHO, sentTo, serveEcho } from '../../support/testEcho'

const { newStore, navigations } = echoStoresPerTest()
const settle = () => new Promise((resolve) => globalThis.setTimeout(resolve, 30))

afterEach(() => {
  vi.useRealTimers()
})

/** Signs in at Echo and loads the page again with `environment`: signed in, nothing painted yet. */
async function signedInPage(environment: Partial<EchoEnvironment>): Promise<EchoStore> {
  await newStore().dispatch(signIn())
  await backFromEcho(navigations.at(-1)!)
  const store = newStore(environment)
  await sessionOf(store).signInCallback
  return store
}

const balanceCalls = (echo: ReturnType<typeof serveEcho>) =>
  sentTo(echo, '/api/v1/balance').length + sentTo(echo, '/api/v1/balance/free').length

describe('the balance of the signed-in user', () => {
  it('is asked for (paid balance and free tier) once the signed-in page has painted, not before', async () => {
    const echo = serveEcho()
    const { afterPaint, paint } = paintQueue()
    const store = await signedInPage({ afterPaint })
    await settle()
    expect(store.getState().echo.auth.status).toBe('authenticated')
    expect(balanceCalls(echo)).toBe(0)
    paint()
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(12.5))
    await vi.waitFor(() => expect(store.getState().echo.balance.freeTierStatus).toBe('succeeded'))
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(1)
    expect(sentTo(echo, '/api/v1/balance/free')).toHaveLength(1)
  })

  it('a store stopped before the paint asks nothing when the page paints', async () => {
    const echo = serveEcho()
    const { afterPaint, paint } = paintQueue()
    const store = await signedInPage({ afterPaint })
    store.dispatch(stopEchoSession())
    paint()
    await settle()
    expect(balanceCalls(echo)).toBe(0)
    expect(store.getState().echo.balance.status).toBe('idle')
  })

  it('stopped, coming back to the page asks nothing; started again, it follows the user again once painted', async () => {
    const echo = serveEcho()
    const { afterPaint, paint } = paintQueue()
    const store = await signedInPage({ afterPaint })
    paint()
    await vi.waitFor(() => expect(store.getState().echo.balance.status).toBe('succeeded'))
    store.dispatch(stopEchoSession())
    const asked = sentTo(echo, '/api/v1/balance').length
    window.dispatchEvent(new Event('focus'))
    await settle()
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(asked)

    store.dispatch(startEchoSession(CONFIG))
    paint()
    echo.set({ balance: 60 })
    window.dispatchEvent(new Event('focus'))
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(60))
  })

  it('new tokens that end an outage ask for the balance again; a refresh in good times does not', async () => {
    const echo = serveEcho({ expiresInSeconds: 15 })
    const { afterPaint, paint } = paintQueue()
    const store = await signedInPage({ afterPaint })
    paint()
    await vi.waitFor(() => expect(store.getState().echo.balance.status).toBe('succeeded'))
    vi.useFakeTimers({ toFake: ['Date'] })
    const session = sessionOf(store)

    vi.setSystemTime(Date.now() + 16_000)
    await session.getToken()
    await settle()
    const asked = sentTo(echo, '/api/v1/balance').length
    expect(asked).toBe(1)

    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const network = { down: true }
    server.use(http.post(`${ECHO}/api/oauth/token`, () => (network.down ? HttpResponse.error() : undefined)))
    vi.setSystemTime(Date.now() + 16_000)
    await session.getToken().catch(() => undefined)
    await vi.waitFor(() => expect(store.getState().echo.auth.isReconnecting).toBe(true))
    network.down = false
    echo.set({ balance: 30 })
    await session.getToken()
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(30))
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(asked + 1)
    expect(warned).toHaveBeenCalledOnce()
  })

  it('the same user signed in again (another tab signed in too) keeps the balance: nothing reset or asked again', async () => {
    const echo = serveEcho()
    const { afterPaint, paint } = paintQueue()
    const store = await signedInPage({ afterPaint })
    paint()
    await vi.waitFor(() => expect(store.getState().echo.balance.freeTierStatus).toBe('succeeded'))
    const { user, accessToken, expiresAt } = store.getState().echo.auth
    store.dispatch(signedIn({ user: user!, accessToken: accessToken!, expiresAt: expiresAt! }))
    paint()
    await settle()
    expect(balanceCalls(echo)).toBe(2)
    expect(store.getState().echo.balance.balance?.balance).toBe(12.5)
  })
})

/** Signed in, and the session reconnecting: a refresh could not reach Echo. */
const reconnecting = {
  ...echoReducer(undefined, { type: 'init' }).auth,
  status: 'authenticated' as const,
  isReconnecting: true,
}

describe('why the balance is asked again', () => {
  it('new tokens ending an outage ask for it saying so (Redux DevTools reads meta.cause)', () => {
    const actions: UnknownAction[] = []
    const runs = echoRuns()
    const store = configureStore({
      reducer: echoReducers,
      middleware: (getDefault) => getDefault().concat(runs.middleware),
      preloadedState: { echo: { ...echoReducer(undefined, { type: 'init' }), auth: reconnecting } },
    })
    const follower = new BalanceFollower(
      (action) => (actions.push(action), store.dispatch(action)),
      store.getState,
      (run) => run(),
    )
    follower.start(runs.start(globalThis).run, 'app-1')
    store.dispatch(tokenRefreshed({ accessToken: 't2', expiresAt: 2_000 }, { by: 'echo' }))
    expect(actions).toHaveLength(1)
    expect(echoApi.util.invalidateTags.match(actions[0])).toBe(true)
    expect(actions[0]).toMatchObject({ payload: ['Balance'], meta: { cause: { by: 'reconnected' } } })
  })

  it('the action that asks again is RTK Query’s own, with its cause beside it', () => {
    const asked = balanceAskedAgain({ by: 'billed-call' })
    expect(echoApi.util.invalidateTags.match(asked)).toBe(true)
    expect(asked).toEqual({ ...echoApi.util.invalidateTags(['Balance']), meta: { cause: { by: 'billed-call' } } })
  })
})
