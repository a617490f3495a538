// @vitest-environment jsdom
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { getToken, refreshBalance, startEchoSession, stopEchoSession, type EchoStore } from 'echo-rtk'
import { EchoClient } from 'echo-rtk/client'
import type { PageSignal, WakeCause } from 'echo-rtk/testing'
import { CONFIG, echoStoresPerTest, fakeLocks, sessionOf } from '../support/echoStores'
import { withCrossTabLock } from '../../src/auth/refreshAttempt'
import { server } from '../support/server'
import { settled } from '../support/settled'
import { APP_ID, ECHO, refreshGrants, serveEcho } from '../support/testEcho'

const { newStore, signInThroughEcho } = echoStoresPerTest()
const auth = (store: EchoStore) => store.getState().echo.auth
const USER_KEY = `oidc.user:${ECHO}:${APP_ID}`
const RECONNECTING = 'Echo could not be reached to renew the session (it will try again)'

afterEach(() => {
  vi.useRealTimers()
})

/** The page's `online` and `visibilitychange` as the environment's seam: the test says when they fire. */
function wakeSignals() {
  const listeners = new Set<(signal: PageSignal) => void>()
  return {
    onPageSignal: (listener: (signal: PageSignal) => void) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    fire: (cause: WakeCause) => {
      for (const listener of [...listeners]) listener(cause)
    },
  }
}

/** The device's network: while it is down every request to Echo fails as `fetch` does offline. Counts the refreshes tried. */
function deviceNetwork() {
  let down = false
  const tried = { tokenRequests: [] as number[], balanceRequests: [] as number[] }
  server.use(
    http.all(`${ECHO}/*`, async ({ request }) => {
      if ((await request.clone().text()).includes('grant_type=refresh_token')) tried.tokenRequests.push(Date.now())
      if (new URL(request.url).pathname === '/api/v1/balance') tried.balanceRequests.push(Date.now())
      return down ? HttpResponse.error() : undefined
    }),
  )
  return {
    tried,
    goOffline: () => void (down = true),
    goOnline: () => void (down = false),
  }
}

/** Fake timers and a whole-second clock, a signed-in tab with 15-second tokens (renewed at 10 s), its wake signals and network. */
async function signedInTab() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  vi.setSystemTime(Math.ceil(Date.now() / 1000) * 1000)
  const echo = serveEcho({ expiresInSeconds: 15 })
  const network = deviceNetwork()
  const wake = wakeSignals()
  const store = await signInThroughEcho({ onPageSignal: wake.onPageSignal })
  const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  return {
    echo,
    network,
    wake,
    store,
    warned,
    logged,
    client: new EchoClient({ tokenProvider: sessionOf(store).coordinator, apiUrl: ECHO }),
  }
}

const stillSignedIn = { status: 'authenticated', user: { id: 'user-1' }, error: null }

/**
 * After an outage has ended: the balance is asked for again, once, and nothing is said about money,
 * then or 140 s later (past the two minutes after which a top-up would read late): no top-up, no spend.
 */
async function expectBalanceAskedOnceAndNoMoneyNews(store: EchoStore, balanceRequests: number[], before: number) {
  await vi.waitFor(() => expect(balanceRequests.length).toBe(before + 1))
  await vi.waitFor(() => expect(store.getState().echo.balance.status).toBe('succeeded'))
  const untouched = { topUp: null, lastCharge: null, spentThisSession: 0 }
  expect(store.getState().echo.money).toMatchObject(untouched)
  await vi.advanceTimersByTimeAsync(140_000)
  expect(store.getState().echo.money).toMatchObject(untouched)
  expect(balanceRequests.length).toBe(before + 1)
}

describe('a refresh that could not reach Echo keeps the user', () => {
  it('offline when the renew timer fires, 28 s: still signed in, reconnecting, nothing wiped, one warning; back online, one refresh and calls work', async () => {
    const { echo, network, wake, store, warned, client } = await signedInTab()
    const stored = window.localStorage.getItem(USER_KEY)
    network.goOffline()
    await vi.advanceTimersByTimeAsync(28_000)
    expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: true })
    expect(window.localStorage.getItem(USER_KEY)).toBe(stored)
    expect(network.tried.tokenRequests.length).toBe(3) // at 10 s, then 2 s and 5 s later
    expect(refreshGrants(echo)).toHaveLength(0)
    expect(warned).toHaveBeenCalledTimes(1)
    expect(String(warned.mock.calls[0]?.[0])).toContain(RECONNECTING)
    const balanceAsked = network.tried.balanceRequests.length
    network.goOnline()
    wake.fire('online')
    await vi.waitFor(() =>
      expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: false, accessToken: 'test-access-2' }),
    )
    expect(refreshGrants(echo)).toHaveLength(1)
    await expectBalanceAskedOnceAndNoMoneyNews(store, network.tried.balanceRequests, balanceAsked)
    await expect(client.balance.get()).resolves.toMatchObject({ balance: 12.5 })
  })

  it('asleep past expiry, the Wi-Fi back 3 s after waking: the late timer fails once, coming back online renews', async () => {
    const { echo, network, wake, store } = await signedInTab()
    network.goOffline()
    // Asleep for half an hour: the clock moves on, timers wait until the machine wakes.
    vi.setSystemTime(Date.now() + 30 * 60_000)
    await vi.advanceTimersByTimeAsync(10_000)
    wake.fire('visible')
    await vi.advanceTimersByTimeAsync(0)
    expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: true })
    await vi.advanceTimersByTimeAsync(1_000)
    const balanceAsked = network.tried.balanceRequests.length
    network.goOnline()
    wake.fire('online')
    await vi.waitFor(() =>
      expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: false, accessToken: 'test-access-2' }),
    )
    expect(refreshGrants(echo).map(({ status }) => status)).toEqual([200])
    await expectBalanceAskedOnceAndNoMoneyNews(store, network.tried.balanceRequests, balanceAsked)
  })

  it.each([
    ['a 503', () => HttpResponse.json({ message: 'Service Unavailable' }, { status: 503 })],
    ['a 500', () => HttpResponse.json({ message: 'Internal Server Error' }, { status: 500 })],
    ['a 429', () => HttpResponse.json({ message: 'Too Many Requests' }, { status: 429 })],
    ['a connection reset', () => HttpResponse.error()],
  ])(
    '%s from the token endpoint, once: the calls waiting reject NETWORK_ERROR, the user stays, and 2 s later the session renews',
    async (_fault, answer) => {
      const { echo, store, client, logged, network } = await signedInTab()
      // Echo's fault is answered once both calls have been refused, so both wait on the one refresh
      // (a call refused after it failed would try again at once, as it should).
      const refusedCalls = () =>
        echo.requests.filter(({ path, status }) => path === '/api/v1/balance' && status === 401)
      const bothRefused = vi.waitFor(() => expect(refusedCalls()).toHaveLength(2))
      server.use(http.post(`${ECHO}/api/oauth/token`, async () => (await bothRefused, answer()), { once: true }))
      vi.setSystemTime(Date.now() + 16_000) // the token has expired: Echo answers the call 401
      const calls = await Promise.all(
        [client.balance.get(), client.balance.get()].map((call) => call.catch((error: unknown) => error)),
      )
      for (const failure of calls)
        expect(failure).toMatchObject({ code: 'NETWORK_ERROR', message: `${RECONNECTING} while fetching balance` })
      expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: true })
      expect(window.localStorage.getItem(USER_KEY)).not.toBeNull()
      expect(logged).not.toHaveBeenCalled()
      const balanceAsked = network.tried.balanceRequests.length
      await vi.advanceTimersByTimeAsync(2_000)
      await vi.waitFor(() =>
        expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: false, accessToken: 'test-access-2' }),
      )
      expect(refreshGrants(echo)).toHaveLength(1)
      await expectBalanceAskedOnceAndNoMoneyNews(store, network.tried.balanceRequests, balanceAsked)
      await expect(client.balance.get()).resolves.toMatchObject({ balance: 12.5 })
    },
  )

  it('getToken() rejects NETWORK_ERROR while Echo cannot be reached, never a null that reads as signed out', async () => {
    const { network, store } = await signedInTab()
    network.goOffline()
    vi.setSystemTime(Date.now() + 16_000)
    await expect(store.dispatch(getToken())).rejects.toMatchObject({ code: 'NETWORK_ERROR', message: RECONNECTING })
  })

  it('the next call tries again at once, before the backoff would', async () => {
    const { echo, network, store, client } = await signedInTab()
    network.goOffline()
    await vi.advanceTimersByTimeAsync(20_000) // tried at 10, 12 and 17 s; the next try is due at 32 s
    network.goOnline() // Echo is back, and nothing told the page
    await expect(client.balance.get()).resolves.toMatchObject({ balance: 12.5 })
    expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: false })
    expect(refreshGrants(echo)).toHaveLength(1)
  })

  it('Echo unreachable at start-up with an expired stored token: signed in as the stored user, reconnecting; Echo back, renewed on the backoff', async () => {
    const { echo, network, wake, store } = await signedInTab()
    store.dispatch({ type: 'echo/stopSession' })
    network.goOffline()
    vi.setSystemTime(Date.now() + 20 * 60_000)
    const reloaded = newStore({ onPageSignal: wake.onPageSignal })
    // At once: the clock does not move while the refresh fails.
    await settled(() =>
      expect(auth(reloaded)).toMatchObject({ ...stillSignedIn, isReconnecting: true, accessToken: 'test-access-1' }),
    )
    // The balance calls the signed-in page made while Echo was down failed.
    await vi.waitFor(() => expect(reloaded.getState().echo.balance.status).toBe('failed'))
    const balanceAsked = network.tried.balanceRequests.length
    network.goOnline() // the server came back; the device never went offline, so no `online` event
    await vi.advanceTimersByTimeAsync(2_000)
    await vi.waitFor(() =>
      expect(auth(reloaded)).toMatchObject({ ...stillSignedIn, isReconnecting: false, accessToken: 'test-access-2' }),
    )
    expect(refreshGrants(echo)).toHaveLength(1)
    await expectBalanceAskedOnceAndNoMoneyNews(reloaded, network.tried.balanceRequests, balanceAsked)
  })

  it('a page going away mid-refresh (its fetch cancelled) removes nothing: the reloaded page is signed in and renews with the same refresh token', async () => {
    const { echo, store } = await signedInTab()
    const stored = window.localStorage.getItem(USER_KEY)
    server.use(http.post(`${ECHO}/api/oauth/token`, () => HttpResponse.error(), { once: true }))
    vi.setSystemTime(Date.now() + 16_000)
    await store.dispatch(getToken()).catch(() => undefined)
    store.dispatch({ type: 'echo/stopSession' })
    expect(window.localStorage.getItem(USER_KEY)).toBe(stored)
    const reloaded = newStore()
    await vi.waitFor(() => expect(auth(reloaded)).toMatchObject({ ...stillSignedIn, accessToken: 'test-access-2' }))
    expect(refreshGrants(echo).filter(({ status }) => status !== 200)).toEqual([])
  })

  it('an hour offline costs a bounded number of attempts, on the backoff (2 s, 5 s, 15 s, 60 s, then every 5 minutes), and one warning', async () => {
    const { network, store, warned } = await signedInTab()
    network.goOffline()
    await vi.advanceTimersByTimeAsync(10_000) // the renew timer's attempt, the first to fail
    expect(network.tried.tokenRequests).toHaveLength(1)
    const start = network.tried.tokenRequests[0]!
    await vi.advanceTimersByTimeAsync(3_600_000 - (Date.now() - start))
    const attempts = network.tried.tokenRequests.map((at) => at - start)
    expect(attempts.length).toBe(16)
    expect(attempts.slice(1).map((at, index) => at - attempts[index]!)).toEqual([
      2_000,
      5_000,
      15_000,
      60_000,
      ...Array<number>(11).fill(300_000),
    ])
    expect(warned).toHaveBeenCalledTimes(1)
    expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: true })
  })

  it('a session stopped mid-outage (its provider unmounted, StrictMode) tries nothing; started again, it keeps its count and waits on the backoff', async () => {
    const { network, store } = await signedInTab()
    network.goOffline()
    await vi.advanceTimersByTimeAsync(10_000 + 2_000) // the renew timer's attempt, then the first retry: two failures
    expect(network.tried.tokenRequests).toHaveLength(2)
    store.dispatch(stopEchoSession())
    await vi.advanceTimersByTimeAsync(600_000)
    expect(network.tried.tokenRequests).toHaveLength(2)
    store.dispatch(startEchoSession(CONFIG))
    await vi.advanceTimersByTimeAsync(4_999)
    expect(network.tried.tokenRequests).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1) // the third try comes 5 s after the restart: the count of two was kept
    expect(network.tried.tokenRequests).toHaveLength(3)
    expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: true })
  })

  it('a refresh under way when the session stops, then refused by Echo: the stopped session removes nothing from storage', async () => {
    const { echo, store, logged } = await signedInTab()
    const stored = window.localStorage.getItem(USER_KEY)
    window.localStorage.setItem('oidc.stale', JSON.stringify({ id: 'stale', client_id: APP_ID, created: 1 }))
    echo.set({ refuseRefresh: true })
    const token = echo.hold('token')
    vi.setSystemTime(Date.now() + 16_000)
    const asked = store.dispatch(getToken())
    await token.reached
    store.dispatch(stopEchoSession())
    token.release()
    await expect(asked).resolves.toBeNull()
    expect(logged).toHaveBeenCalledTimes(1) // Echo's refusal is still logged
    expect(window.localStorage.getItem(USER_KEY)).toBe(stored)
    expect(window.localStorage.getItem('oidc.stale')).not.toBeNull()
  })

  it('a stopped session renews nothing when its token is due; started again, it renews once, when due', async () => {
    const { echo, store } = await signedInTab()
    store.dispatch(stopEchoSession())
    await vi.advanceTimersByTimeAsync(9_000)
    store.dispatch(startEchoSession(CONFIG))
    await vi.advanceTimersByTimeAsync(999)
    expect(refreshGrants(echo)).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    await vi.waitFor(() => expect(refreshGrants(echo)).toHaveLength(1))
    await vi.advanceTimersByTimeAsync(5_000)
    expect(refreshGrants(echo)).toHaveLength(1)
  })

  it('a second outage is warned of again, once', async () => {
    const { network, wake, warned } = await signedInTab()
    for (const round of [1, 2]) {
      network.goOffline()
      await vi.advanceTimersByTimeAsync(20_000)
      network.goOnline()
      wake.fire('online')
      await vi.advanceTimersByTimeAsync(100)
      expect(warned).toHaveBeenCalledTimes(round)
    }
  })
})

describe('a refresh that takes longer than 10 s', () => {
  it('fails its waiters at 10 s (NETWORK_ERROR); the late 200 is adopted and stored, and nothing is sent again meanwhile', async () => {
    const { echo, store, client, wake } = await signedInTab()
    const tokenEndpoint = echo.hold('token')
    vi.setSystemTime(Date.now() + 16_000)
    const call = client.balance.get().catch((error: unknown) => error)
    await tokenEndpoint.reached // the grant is at Echo, the clock where the attempt started
    await vi.advanceTimersByTimeAsync(9_999)
    expect(auth(store).isReconnecting).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await call).toMatchObject({ code: 'NETWORK_ERROR' })
    expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: true })
    // Coming back online while the grant is still out: its turn is not over, nothing new is sent.
    wake.fire('online')
    await vi.advanceTimersByTimeAsync(12_000)
    expect(refreshGrants(echo)).toHaveLength(1)
    tokenEndpoint.release()
    await vi.waitFor(() =>
      expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: false, accessToken: 'test-access-2' }),
    )
    expect(JSON.parse(window.localStorage.getItem(USER_KEY)!)).toMatchObject({
      access_token: 'test-access-2',
      refresh_token: 'test-refresh-2',
    })
    expect(refreshGrants(echo).map(({ status }) => status)).toEqual([200])
  })
})

describe('a refresh Echo refuses ends the session', () => {
  it('a refresh token past its own life ends the session without a request', async () => {
    const { echo, store, logged } = await signedInTab()
    store.dispatch({ type: 'echo/stopSession' })
    vi.setSystemTime(Date.now() + 31 * 86_400_000) // Echo's refresh tokens live 30 days
    const reloaded = newStore()
    await vi.waitFor(() =>
      expect(auth(reloaded)).toMatchObject({
        status: 'unauthenticated',
        error: { reason: 'session-ended', message: 'Your session has ended. Sign in again.' },
      }),
    )
    expect(refreshGrants(echo)).toHaveLength(0)
    expect(window.localStorage.getItem(USER_KEY)).toBeNull()
    expect(logged).toHaveBeenCalledWith(
      'Token refresh failed:',
      new Error('The refresh token has expired: sign in again'),
    )
  })

  /** A second tab whose storage events and channel messages the test delivers, in the order it chooses. */
  function tabWithControlledSignals() {
    const storageListeners: ((event: StorageEvent) => void)[] = []
    const messageListeners: ((event: MessageEvent) => void)[] = []
    const channel = {
      addEventListener: (_type: string, listener: (event: MessageEvent) => void) => messageListeners.push(listener),
      removeEventListener: () => undefined,
      postMessage: () => undefined,
      close: () => undefined,
    } as unknown as BroadcastChannel
    const tab = newStore({
      openChannel: () => channel,
      onStorage: (listener) => (storageListeners.push(listener), () => undefined),
    })
    return {
      tab,
      storageEvent: () => {
        for (const listener of storageListeners)
          listener(new StorageEvent('storage', { key: USER_KEY, oldValue: 'x', newValue: null }))
      },
      endedMessage: () => {
        for (const listener of messageListeners) listener(new MessageEvent('message', { data: { type: 'ended' } }))
      },
    }
  }

  it.each([
    ['the storage event first', ['storageEvent', 'endedMessage'] as const],
    ['the channel message first', ['endedMessage', 'storageEvent'] as const],
  ])('the other tab says the session ended, whichever signal comes first (%s)', async (_order, order) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const echo = serveEcho({ expiresInSeconds: 15 })
    const first = await signInThroughEcho()
    const second = tabWithControlledSignals()
    expect(auth(second.tab).status).toBe('authenticated')
    echo.set({ refuseRefresh: true })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 16_000)
    await first.dispatch(getToken())
    await vi.waitFor(() => expect(auth(first).error?.message).toBe('Your session has ended. Sign in again.'))
    for (const signal of order) second[signal]()
    await vi.waitFor(() =>
      expect(auth(second.tab)).toMatchObject({
        status: 'unauthenticated',
        user: null,
        error: { reason: 'session-ended', message: 'Your session has ended. Sign in again.' },
      }),
    )
  })

  it('a sign-out chosen in another tab stays without a message: no ended signal follows its storage event', async () => {
    serveEcho()
    await signInThroughEcho()
    const second = tabWithControlledSignals()
    window.localStorage.removeItem(USER_KEY) // what the sign-out in the first tab did
    second.storageEvent()
    await vi.waitFor(() => expect(auth(second.tab)).toMatchObject({ status: 'unauthenticated', error: null }))
  })
})

describe('tabs coming back together', () => {
  it('`online` firing in three reconnecting tabs at once sends one token request; every tab takes its tokens', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const echo = serveEcho({ expiresInSeconds: 15 })
    const network = deviceNetwork()
    const locks = fakeLocks()
    const openChannel = (name: string) => new BroadcastChannel(name)
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const tabs = [wakeSignals(), wakeSignals(), wakeSignals()]
    const first = await signInThroughEcho({ locks, openChannel, onPageSignal: tabs[0]!.onPageSignal })
    const stores = [
      first,
      newStore({ locks, openChannel, onPageSignal: tabs[1]!.onPageSignal }),
      newStore({ locks, openChannel, onPageSignal: tabs[2]!.onPageSignal }),
    ]
    network.goOffline()
    await vi.advanceTimersByTimeAsync(11_000)
    for (const store of stores) expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: true })
    network.goOnline()
    const before = network.tried.tokenRequests.length
    for (const tab of tabs) tab.fire('online')
    await vi.advanceTimersByTimeAsync(1_000)
    await vi.waitFor(() => {
      for (const store of stores)
        expect(auth(store)).toMatchObject({ ...stillSignedIn, isReconnecting: false, accessToken: 'test-access-2' })
    })
    expect(network.tried.tokenRequests.length - before).toBe(1)
    expect(refreshGrants(echo).map(({ status }) => status)).toEqual([200])
    await expect(stores[2]!.dispatch(refreshBalance())).resolves.toMatchObject({ balance: 12.5 })
  })
})

type Locks = Pick<LockManager, 'request'>
interface Held {
  options: LockOptions
  grant: () => Promise<unknown>
}

/** A lock manager that grants only when the test says so, and gives up a wait whose signal aborts, as browsers do. */
function heldLocks(): { locks: Locks; held: Held[] } {
  const held: Held[] = []
  const request = (_name: string, options: LockOptions, work: () => Promise<unknown>) => {
    return new Promise((resolve, reject) => {
      let granted = false
      held.push({ options, grant: () => ((granted = true), work().then(resolve, reject)) })
      options.signal?.addEventListener('abort', () => !granted && reject(options.signal?.reason as Error))
    })
  }
  return { locks: { request } as unknown as Locks, held }
}

describe('withCrossTabLock', () => {
  it('without Web Locks runs the work at once', async () => {
    await expect(
      withCrossTabLock(undefined, 'n', new AbortController().signal, () => Promise.resolve('done')),
    ).resolves.toBe('done')
  })

  it("asks for the lock exclusively, with the caller's signal to stop waiting with", () => {
    const { locks, held } = heldLocks()
    const stop = new AbortController()
    void withCrossTabLock(locks, 'echo-rtk:refresh', stop.signal, () => Promise.resolve('done')).catch(() => undefined)
    expect(held[0]?.options).toMatchObject({ mode: 'exclusive', signal: stop.signal })
  })

  it('a wait given up before the lock is granted rejects with the reason, and the work never runs', async () => {
    const { locks } = heldLocks()
    const stop = new AbortController()
    let ran = false
    const waiting = withCrossTabLock(locks, 'n', stop.signal, () => Promise.resolve((ran = true))).catch(
      (error: unknown) => error,
    )
    stop.abort(new DOMException('No turn in time', 'TimeoutError'))
    expect(await waiting).toMatchObject({ name: 'TimeoutError' })
    expect(ran).toBe(false)
  })

  it('once granted, the lock is held until the work settles, whatever the signal does after', async () => {
    const { locks, held } = heldLocks()
    const stop = new AbortController()
    let finish = (): void => undefined
    const running = withCrossTabLock(
      locks,
      'n',
      stop.signal,
      () => new Promise<string>((resolve) => (finish = () => resolve('done'))),
    )
    void held[0]!.grant()
    stop.abort()
    finish()
    await expect(running).resolves.toBe('done')
  })
})
