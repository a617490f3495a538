// @vitest-environment jsdom
// The user's money in sight: what each answer cost, today's total (a reload, midnight, other tabs),
// the daily limit (refused before anything is sent, raised by the user, kept per user and app), the
// low-balance threshold, and a top-up waited for until its credits arrive.
import { QueryStatus } from '@reduxjs/toolkit/query'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { createPaymentLink, EchoError, getEchoRouter, setDailyLimit, type EchoConfig, type EchoStore } from 'echo-rtk'
import type { EchoEnvironment } from '../../src/auth/environment'
import { localDay, spentKey, spentRecord } from '../../src/store/money/spendWatch'
import { TOP_UP_LATE_MS } from '../../src/store/money/topUpWatch'
import { resolveConfig } from '../../src/config'
import { CONFIG, echoStoresPerTest } from '../support/echoStores'
import { sentTo, serveEcho } from '../support/testEcho'

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

  it('none set by the user (null) lifts the app default; an amount under a cent is refused, saying why', async () => {
    serveEcho({ chargePerCall: 0.01 })
    const store = await signInThroughEcho({}, limited)
    await store.dispatch(setDailyLimit(null))
    await askAndSettle(store)
    await askAndSettle(store)
    await expect(store.dispatch(setDailyLimit(0))).rejects.toThrow(
      'The daily limit must be an amount in US dollars of at least 0.01, or null for none (got 0)',
    )
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
