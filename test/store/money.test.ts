// @vitest-environment jsdom
// The user's money in sight: what each answer cost, today's total (a reload, midnight, other tabs),
// the daily limit (refused before anything is sent, raised by the user, kept per user and app), the
// low-balance threshold, and a top-up waited for until its credits arrive.
import { QueryStatus } from '@reduxjs/toolkit/query'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  createPaymentLink,
  EchoError,
  getEchoFetch,
  getEchoRouter,
  setDailyLimit,
  signOut,
  startEchoSession,
  stopEchoSession,
  type EchoConfig,
  type EchoStore,
} from 'echo-rtk'
import type { EchoEnvironment } from '../../src/auth/environment'
import { dailyLimitKey } from '../../src/store/money/dailyLimit'
import { localDay, spentKey, spentRecord } from '../../src/store/money/spendWatch'
import { moneySlice, topUpCredited, topUpLate, topUpWaiting } from '../../src/store/money/moneySlice'
import { TOP_UP_LATE_MS } from '../../src/store/money/topUpWatch'
import { resolveConfig } from '../../src/config'
import { CONFIG, echoStoresPerTest } from '../support/echoStores'
import { server } from '../support/server'
import { APP_ID, APP_URL, ECHO, sentTo, serveEcho } from '../support/testEcho'

const { signInThroughEcho, newStore } = echoStoresPerTest()
const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hello' }] }
const money = (store: EchoStore) => store.getState().echo.money
const ask = (store: EchoStore) => store.dispatch(getEchoRouter()).chat.completions.create(CHAT)
const USER_ID = 'user-1'

afterEach(() => {
  vi.useRealTimers()
})

/** A call answered, and the balance after it in: what it cost is known. */
async function askAndSettle(store: EchoStore) {
  const charges = money(store).lastCharge
  await ask(store)
  await vi.waitFor(() => expect(money(store).lastCharge).not.toBe(charges))
}

describe('what each answer cost, and today', () => {
  it("shows the last answer's cost (paid balance and free tier together) and today's total, which a reload keeps", async () => {
    serveEcho({ chargePerCall: 0.0031, freeTier: 0.002 })
    const store = await signInThroughEcho()
    expect(money(store)).toMatchObject({ spentToday: 0, lastCharge: null })
    await askAndSettle(store)
    // $0.002 of it from the free tier, the rest from the paid balance: one charge of $0.0031.
    expect(money(store).lastCharge).toMatchObject({ amount: 0.0031, calls: 1 })
    await askAndSettle(store)
    expect(money(store)).toMatchObject({ spentToday: 0.0062, spentThisSession: 0.0062 })

    const reloaded = newStore()
    expect(money(reloaded)).toMatchObject({ spentToday: 0.0062, spentThisSession: 0, lastCharge: null })
  })

  it('calls that overlap are one charge, with their count: no per-call figure is invented', async () => {
    serveEcho({ chargePerCall: 0.01 })
    const store = await signInThroughEcho()
    await Promise.all([ask(store), ask(store), ask(store)])
    await vi.waitFor(() => expect(money(store).lastCharge).toMatchObject({ amount: 0.03, calls: 3 }))
    expect(money(store).spentToday).toBe(0.03)
  })

  it("starts a new day at the user's midnight: yesterday's total is not today's, and the midnight timer clears it", async () => {
    // At noon, so that the midnight timer is the only one hours long, whatever time the test runs.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date(new Date().setHours(12, 0, 0, 0)))
    serveEcho({ chargePerCall: 0.01 })
    const yesterday = localDay(Date.now() - 24 * 3_600_000)
    window.localStorage.setItem(spentKey(resolveConfig(CONFIG), USER_ID), spentRecord(yesterday, 4.2))
    let midnight: (() => void) | undefined
    const timers: Partial<EchoEnvironment> = {
      setTimeout: (run: () => void, ms: number) =>
        ms > 60 * 60_000 ? ((midnight = run), 0) : globalThis.setTimeout(run, ms),
    }
    const store = await signInThroughEcho(timers)
    expect(money(store).spentToday).toBe(0)
    await askAndSettle(store)
    expect(money(store).spentToday).toBe(0.01)
    midnight!()
    expect(money(store).spentToday).toBe(0)
  })

  it("another tab's charge shows in this one (the storage event), and a charge adds to the day's stored total", async () => {
    serveEcho({ chargePerCall: 0.01 })
    const store = await signInThroughEcho()
    const otherTab = newStore()
    await askAndSettle(store)
    const key = spentKey(resolveConfig(CONFIG), USER_ID)
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: window.localStorage.getItem(key) }))
    expect(money(otherTab).spentToday).toBe(0.01)
    await askAndSettle(otherTab)
    expect(JSON.parse(window.localStorage.getItem(key)!)).toEqual({ day: localDay(Date.now()), amount: 0.02 })
  })

  it('calls among which one was refused for want of credit (402) are not counted: the fall to nothing says nothing of them', async () => {
    const echo = serveEcho({ chargePerCall: 0.01 })
    const store = await signInThroughEcho()
    await askAndSettle(store)
    echo.set({ outOfCredits: true })
    await expect(ask(store)).rejects.toMatchObject({ reason: 'insufficient-funds' })
    // The balance asked again after the refusal reads nothing left.
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(0))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(money(store)).toMatchObject({ spentToday: 0.01, lastCharge: { amount: 0.01 } })
  })
})

describe('the daily limit', () => {
  const limited: EchoConfig = { ...CONFIG, dailyLimit: 0.01 }

  it('at the limit, the next billed call is refused before anything is sent, with its own reason (not a 402)', async () => {
    const echo = serveEcho({ chargePerCall: 0.01 })
    const store = await signInThroughEcho({}, limited)
    await askAndSettle(store)
    expect(store.getState().echo.money.spentToday).toBe(0.01)
    const sent = sentTo(echo, '/chat/completions').length
    const refused = (await ask(store).catch((error: unknown) => error)) as EchoError
    expect(refused).toBeInstanceOf(EchoError)
    expect(refused.reason).toBe('spend-limit')
    // The router's refusals name what was refused, as its other errors do.
    expect(refused.message).toBe(
      "Today's limit for this app is reached ($0.01 of $0.01): raise it in your Echo account to keep going" +
        ' while creating chat completion',
    )
    await expect(store.dispatch(getEchoRouter()).chat.completions.create(CHAT)).rejects.toMatchObject({
      reason: 'spend-limit',
    })
    expect(sentTo(echo, '/chat/completions')).toHaveLength(sent)
    expect(store.getState().echo.balance.isInsufficientFunds).toBe(false)
  })

  it('raised by the user, the call goes through; their limit is kept for them and this app across a reload', async () => {
    const echo = serveEcho({ chargePerCall: 0.01 })
    const store = await signInThroughEcho({}, limited)
    await askAndSettle(store)
    await store.dispatch(setDailyLimit(0.05))
    await askAndSettle(store)
    expect(sentTo(echo, '/chat/completions')).toHaveLength(2)
    const reloaded = newStore({}, limited)
    expect(money(reloaded)).toMatchObject({ userDailyLimit: 0.05, appDailyLimit: 0.01 })
    // Another app of the same user has its own limit.
    const otherApp = newStore({}, { ...limited, appId: '7a2e9c1b-4d3f-4b8a-9e6c-1f2d3c4b5a69' })
    expect(money(otherApp).userDailyLimit).toBeUndefined()
  })

  it('none set by the user (null) lifts the app default; an amount under a cent or over $10,000 is refused, saying why', async () => {
    serveEcho({ chargePerCall: 0.01 })
    const store = await signInThroughEcho({}, limited)
    await store.dispatch(setDailyLimit(null))
    await askAndSettle(store)
    await askAndSettle(store)
    await expect(store.dispatch(setDailyLimit(0))).rejects.toThrow(
      'The daily limit must be an amount in US dollars from 0.01 to 10000, or null for none (got 0)',
    )
    await expect(store.dispatch(setDailyLimit(1e9))).rejects.toThrow(
      'The daily limit must be an amount in US dollars from 0.01 to 10000, or null for none (got 1000000000)',
    )
    await expect(store.dispatch(setDailyLimit(10_000))).resolves.toBeUndefined()
  })

  it('a model call through a stopped store (its provider unmounted) sends nothing and says why', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const echoFetch = store.dispatch(getEchoFetch())
    store.dispatch(stopEchoSession())
    const sent = echo.requests.length
    await expect(ask(store)).rejects.toMatchObject({ reason: 'session-stopped' })
    await expect(
      echoFetch(`${resolveConfig(CONFIG).baseRouterUrl}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify(CHAT),
      }),
    ).rejects.toMatchObject({ reason: 'session-stopped' })
    expect(echo.requests).toHaveLength(sent)
  })

  it('set on a stopped store (its provider unmounted), is refused saying so, and nothing is stored', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    store.dispatch(stopEchoSession())
    const stored = Object.keys(window.localStorage).sort()
    await expect(store.dispatch(setDailyLimit(5))).rejects.toMatchObject({ reason: 'session-stopped' })
    expect(Object.keys(window.localStorage).sort()).toEqual(stored)
    expect(money(store).userDailyLimit).toBeUndefined()
  })
})

describe('the balance running low', () => {
  it('is low under $1.00 of credit by default, and under what the app sets', async () => {
    serveEcho({ balance: 0.4, freeTier: null })
    const low = await signInThroughEcho()
    const { selectIsLowBalance } = await import('../../src/store/selectors')
    expect(selectIsLowBalance(low.getState())).toBe(true)
    const store = newStore({}, { ...CONFIG, lowBalanceAt: 0.25 })
    await vi.waitFor(() => expect(store.getState().echo.balance.status).toBe('succeeded'))
    expect(selectIsLowBalance(store.getState())).toBe(false)
  })
})

describe('a top-up after checkout', () => {
  it('waits for the credits on a backoff, says late after two minutes, then credited with the amount', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    let clock = Date.now()
    const checks: (() => void)[] = []
    const environment: Partial<EchoEnvironment> = {
      now: () => clock,
      // The top-up's checks (2 s to 30 s) are run by the test; the session's other timers run as usual.
      setTimeout: (run: () => void, ms: number) =>
        ms >= 2_000 && ms <= 30_000 ? checks.push(run) : globalThis.setTimeout(run, ms),
    }
    const store = await signInThroughEcho(environment)
    const asked = () => sentTo(echo, '/api/v1/balance').length
    const answered = () =>
      Object.values(store.getState().echoApi.queries).every((query) => query?.status !== QueryStatus.pending)
    const before = asked()
    store.dispatch({ type: 'echo/checkoutPaid' })
    expect(money(store).topUp).toEqual({ status: 'waiting', amount: null })
    await vi.waitFor(() => expect(asked() > before && answered()).toBe(true))
    // The next checks find nothing new: still waiting, each one asking Echo again.
    for (const _ of [1, 2]) {
      const count = asked()
      checks.shift()!()
      await vi.waitFor(() => expect(asked() > count && answered()).toBe(true))
    }
    expect(money(store).topUp?.status).toBe('waiting')
    clock += TOP_UP_LATE_MS
    checks.shift()!()
    expect(money(store).topUp?.status).toBe('late')
    echo.set({ balance: 10 })
    checks.shift()!()
    await vi.waitFor(() => expect(money(store).topUp).toEqual({ status: 'credited', amount: 5 }))
  })

  it('asks on the backoff of 2, 4, 8, 15 and 30 s, then every 30 s; late once past two minutes; no more checks after 15 minutes', async () => {
    serveEcho({ balance: 5, freeTier: null })
    let clock = Date.now()
    const checks: { run: () => void; ms: number }[] = []
    const store = await signInThroughEcho({
      now: () => clock,
      setTimeout: (run: () => void, ms: number) =>
        ms >= 2_000 && ms <= 30_000 ? checks.push({ run, ms }) : globalThis.setTimeout(run, ms),
    })
    store.dispatch({ type: 'echo/checkoutPaid' })
    const waits: number[] = []
    const late: string[] = []
    while (checks.length > 0) {
      const { run, ms } = checks.shift()!
      waits.push(ms)
      clock += ms
      run()
      late.push(money(store).topUp?.status ?? 'none')
    }
    expect(waits.slice(0, 7)).toEqual([2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000])
    // 15 minutes of checks: 59 s for the first five, then every 30 s up to the check at or past 15 minutes.
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(15 * 60_000)
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(15 * 60_000 + 30_000)
    expect(late.indexOf('late')).toBe(
      waits.findIndex((_, index) => waits.slice(0, index + 1).reduce((a, b) => a + b, 0) >= TOP_UP_LATE_MS),
    )
    expect(money(store).topUp).toEqual({ status: 'late', amount: null })
  })

  it('back from a checkout in this tab, the credit before it rides in the return address: waiting until it rises', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const store = await signInThroughEcho()
    await store.dispatch(createPaymentLink({ amount: 5, successUrl: 'https://app.test/' }, { checkoutIn: 'this-tab' }))
    const [linkRequest] = sentTo(echo, '/api/v1/stripe/payment-link')
    const returnAddress = new URL((linkRequest!.body as { successUrl: string }).successUrl)
    expect(returnAddress.searchParams.get('echo_credit_before')).toBe('5')
    // The page loads again at that address: it knows the $5.00 from before, though it has no figure of its own.
    window.history.replaceState(null, '', `/${returnAddress.search}`)
    const checks: (() => void)[] = []
    const returned = newStore({
      setTimeout: (run: () => void, ms: number) =>
        ms >= 2_000 && ms <= 30_000 ? checks.push(run) : globalThis.setTimeout(run, ms),
    })
    expect(window.location.search).toBe('')
    await vi.waitFor(() => expect(returned.getState().echo.balance.status).toBe('succeeded'))
    expect(money(returned).topUp).toEqual({ status: 'waiting', amount: null })
    echo.set({ balance: 10 })
    checks.shift()!()
    await vi.waitFor(() => expect(money(returned).topUp).toEqual({ status: 'credited', amount: 5 }))
  })
})

describe("another tab's checkout", () => {
  const openChannel = (name: string) => new BroadcastChannel(name)
  /** What another tab of the app says when its checkout came back paid. */
  const tellCheckoutPaid = (message: unknown = { type: 'checkout-paid' }) => {
    const otherTab = new BroadcastChannel(`echo-rtk:money:${ECHO}:${APP_ID}`)
    otherTab.postMessage(message)
    otherTab.close()
  }
  /** Every request to Echo fails as `fetch` does offline, while `down`. */
  function echoOutage() {
    const network = { down: true }
    server.use(http.all(`${ECHO}/*`, () => (network.down ? HttpResponse.error() : undefined)))
    return network
  }
  /** The top-up's checks (2 s to 30 s), run by the test; the session's other timers run as usual. */
  function topUpChecks() {
    const checks: (() => void)[] = []
    const setTimeout = (run: () => void, ms: number) =>
      ms >= 2_000 && ms <= 30_000 ? checks.push(run) : globalThis.setTimeout(run, ms)
    return { checks, setTimeout }
  }

  it('paid while Echo cannot be reached here: waiting through the outage, credited once Echo answers again', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const { checks, setTimeout } = topUpChecks()
    const store = await signInThroughEcho({ openChannel, setTimeout })
    const network = echoOutage()
    tellCheckoutPaid()
    await vi.waitFor(() => expect(money(store).topUp).toEqual({ status: 'waiting', amount: null }))
    checks.shift()!()
    await new Promise((resolve) => globalThis.setTimeout(resolve, 20))
    expect(money(store).topUp).toEqual({ status: 'waiting', amount: null })
    network.down = false
    echo.set({ balance: 15 })
    checks.shift()!()
    await vi.waitFor(() => expect(money(store).topUp).toEqual({ status: 'credited', amount: 10 }))
  })

  it("a tab where nobody is signed in takes no top-up from it (the payment is not its user's to show)", async () => {
    serveEcho()
    const { checks, setTimeout } = topUpChecks()
    const signedOutTab = newStore({ openChannel, setTimeout })
    tellCheckoutPaid()
    await new Promise((resolve) => globalThis.setTimeout(resolve, 20))
    expect(money(signedOutTab).topUp).toBeNull()
    expect(checks).toHaveLength(0)
  })

  it('any other message on the channel says nothing about money', async () => {
    serveEcho()
    const store = await signInThroughEcho({ openChannel })
    for (const message of [{ type: 'balance' }, { type: 'checkout' }, 'checkout-paid', null]) tellCheckoutPaid(message)
    await new Promise((resolve) => globalThis.setTimeout(resolve, 20))
    expect(money(store).topUp).toBeNull()
  })

  it('a stopped store hears no tab and checks nothing; started again, it hears the next one', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const { checks, setTimeout } = topUpChecks()
    const store = await signInThroughEcho({ openChannel, setTimeout })
    store.dispatch(stopEchoSession())
    const asked = sentTo(echo, '/api/v1/balance').length
    tellCheckoutPaid()
    await new Promise((resolve) => globalThis.setTimeout(resolve, 20))
    expect(money(store).topUp).toBeNull()
    expect(checks).toHaveLength(0)
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(asked)
    store.dispatch(startEchoSession(CONFIG))
    tellCheckoutPaid()
    await vi.waitFor(() => expect(money(store).topUp).toEqual({ status: 'waiting', amount: null }))
  })

  it('a top-up waited for when the store stops is checked no more until it starts again', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const { checks, setTimeout } = topUpChecks()
    const store = await signInThroughEcho({ setTimeout })
    store.dispatch({ type: 'echo/checkoutPaid' })
    expect(checks).toHaveLength(1)
    store.dispatch(stopEchoSession())
    const asked = sentTo(echo, '/api/v1/balance').length
    checks.shift()!() // a check that was already due when the store stopped
    await new Promise((resolve) => globalThis.setTimeout(resolve, 20))
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(asked)
    echo.set({ balance: 9 })
    store.dispatch(startEchoSession(CONFIG))
    await vi.waitFor(() => expect(money(store).topUp).toEqual({ status: 'credited', amount: 4 }))
  })
})

describe('checkout coming back (a top-up)', () => {
  const openChannel = (name: string) => new BroadcastChannel(name)

  it.each([
    ['a checkout tab the app opened', 'tab', 1],
    ["checkout in the app's own tab", 'page', 0],
  ])(
    '%s: the other tabs refetch the balance at once (no focus needed), the mark leaves the address bar',
    async (_name, mark, closes) => {
      const echo = serveEcho()
      const firstTab = await signInThroughEcho({ openChannel })
      const balanceCalls = sentTo(echo, '/api/v1/balance').length
      echo.set({ balance: 22.5 })
      window.history.replaceState(null, '', `/?tab=usage&echo_top_up=${mark}#top`)
      const closeWindow = vi.fn()
      newStore({ openChannel, closeWindow })
      expect(window.location.href).toBe(`${APP_URL}/?tab=usage#top`)
      expect(closeWindow).toHaveBeenCalledTimes(closes)
      await vi.waitFor(() => expect(firstTab.getState().echo.balance.balance?.balance).toBe(22.5))
      expect(sentTo(echo, '/api/v1/balance').length).toBeGreaterThan(balanceCalls)
    },
  )

  it('a page without the mark tells nobody and closes nothing', async () => {
    serveEcho()
    await signInThroughEcho({ openChannel })
    const closeWindow = vi.fn()
    window.history.replaceState(null, '', '/?echo_top_up=yes-please')
    newStore({ openChannel, closeWindow })
    expect(window.location.search).toBe('?echo_top_up=yes-please')
    expect(closeWindow).not.toHaveBeenCalled()
  })
})

describe('the money when the user leaves', () => {
  it("a sign-out forgets the user's figures and a top-up under way: nothing of theirs shows for the next", async () => {
    serveEcho({ chargePerCall: 0.01 })
    const store = await signInThroughEcho()
    await askAndSettle(store)
    await store.dispatch(setDailyLimit(5))
    store.dispatch({ type: 'echo/checkoutPaid' })
    expect(money(store)).toMatchObject({ spentToday: 0.01, userDailyLimit: 5, topUp: { status: 'waiting' } })
    await store.dispatch(signOut())
    expect(money(store)).toMatchObject({ spentToday: null, spentThisSession: 0, lastCharge: null, topUp: null })
    expect(money(store).userDailyLimit).toBeUndefined()
  })

  it("another tab's new daily limit for this user shows here; another key's change does not", async () => {
    serveEcho()
    const store = await signInThroughEcho()
    const key = dailyLimitKey(resolveConfig(CONFIG), USER_ID)
    window.localStorage.setItem(key, JSON.stringify({ limit: 3 }))
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: JSON.stringify({ limit: 3 }) }))
    expect(money(store).userDailyLimit).toBe(3)
    window.dispatchEvent(new StorageEvent('storage', { key: 'unrelated', newValue: JSON.stringify({ limit: 9 }) }))
    expect(money(store).userDailyLimit).toBe(3)
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: null }))
    expect(money(store).userDailyLimit).toBeNull()
  })
})

describe('the top-up in the store', () => {
  const reduce = moneySlice.reducer
  it('only a top-up still waiting turns late: one credited meanwhile stays credited, and no top-up stays none', () => {
    const waiting = reduce(undefined, topUpWaiting())
    expect(reduce(waiting, topUpLate()).topUp).toEqual({ status: 'late', amount: null })
    const credited = reduce(waiting, topUpCredited(5))
    expect(reduce(credited, topUpLate()).topUp).toEqual({ status: 'credited', amount: 5 })
    expect(reduce(undefined, topUpLate()).topUp).toBeNull()
  })
})
