// @vitest-environment jsdom
// A top-up confirmed for the user: waiting on a backoff until the balance rises, late after two
// minutes, given up after fifteen, credited with the amount; what a stop, a restart, a second
// checkout and a sign-out do to the wait; and the checkout's way back to the app.
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { createPaymentLink, signOut, startEchoSession, stopEchoSession, type EchoStore } from 'echo-rtk'
import { paidAtCheckout, type EchoEnvironment } from 'echo-rtk/testing'
import type { UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../../src/api/query/echoApi'
import type { ResolvedEchoConfig } from '../../../src/config'
import type { EchoRootState } from '../../../src/store/echoReducer'
import { TopUpWatch } from '../../../src/store/money/topUpWatch'
import { CONFIG, echoStoresPerTest } from '../../support/echoStores'
import { echoRuns } from '../../support/echoRuns'
import { server } from '../../support/server'
import { ECHO, sentTo, serveEcho } from '../../support/testEcho'

const { signInThroughEcho, newStore } = echoStoresPerTest()
const topUp = (store: EchoStore) => store.getState().echo.money.topUp
const settle = () => new Promise((resolve) => globalThis.setTimeout(resolve, 30))

afterEach(() => {
  vi.useRealTimers()
})

/**
 * The top-up's checks (2 s to 30 s) held for the test, which runs them; cleared ones are dropped as a
 * browser drops them. The session's other timers run as usual. `clock` is the store's `now`.
 */
function topUpChecks() {
  const armed = new Map<object, { run: () => void; ms: number }>()
  const clock = { now: Date.now() }
  const environment: Partial<EchoEnvironment> = {
    now: () => clock.now,
    setTimeout: (run: () => void, ms: number) => {
      if (ms < 2_000 || ms > 30_000) return globalThis.setTimeout(run, ms)
      const handle = {}
      armed.set(handle, { run, ms })
      return handle
    },
    clearTimeout: (handle: unknown) => {
      if (!armed.delete(handle as object)) globalThis.clearTimeout(handle as number)
    },
  }
  return {
    environment,
    clock,
    /** The waits of the checks armed now, in ms. */
    armed: () => [...armed.values()].map((check) => check.ms),
    /** Runs the next armed check, `advance` ms (its own wait by default) later. */
    runNext(advance?: number) {
      this.takeNext(advance)()
    },
    /**
     * The next armed check, due now (`advance` ms later): the test runs it when it likes, as a timer
     * the event loop had already queued runs even if cleared meanwhile.
     */
    takeNext(advance?: number): () => void {
      const [handle, check] = [...armed.entries()][0]!
      armed.delete(handle)
      clock.now += advance ?? check.ms
      return check.run
    },
  }
}

describe('a top-up waited for', () => {
  it('credited as soon as the balance shows it: no check is left armed after', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const checks = topUpChecks()
    const store = await signInThroughEcho(checks.environment)
    paidAtCheckout(store)
    await settle()
    expect(checks.armed()).toEqual([2_000])
    echo.set({ balance: 8 })
    checks.runNext()
    await vi.waitFor(() => expect(topUp(store)).toEqual({ status: 'credited', amount: 3 }))
    expect(checks.armed()).toEqual([])
  })

  it('a rise of no more than what Echo counts as spent ($0.0001) is not the credits', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const checks = topUpChecks()
    const store = await signInThroughEcho(checks.environment)
    paidAtCheckout(store)
    echo.set({ balance: 5.0001 })
    checks.runNext()
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(5.0001))
    expect(topUp(store)).toEqual({ status: 'waiting', amount: null })
    echo.set({ balance: 5.01 })
    checks.runNext()
    await vi.waitFor(() => expect(topUp(store)).toEqual({ status: 'credited', amount: 0.01 }))
  })

  it('a second checkout while one is waited for starts the wait over: one check, at 2 s', async () => {
    serveEcho({ balance: 5, freeTier: null })
    const checks = topUpChecks()
    const store = await signInThroughEcho(checks.environment)
    paidAtCheckout(store)
    checks.runNext()
    checks.runNext()
    expect(checks.armed()).toEqual([8_000])
    paidAtCheckout(store)
    expect(checks.armed()).toEqual([2_000])
  })

  it('is checked until fifteen minutes have passed, the check at fifteen minutes the last', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const checks = topUpChecks()
    const store = await signInThroughEcho(checks.environment)
    paidAtCheckout(store)
    const paidAt = checks.clock.now
    checks.runNext(15 * 60_000 - 1)
    expect(topUp(store)?.status).toBe('late')
    expect(checks.armed()).toHaveLength(1)
    checks.runNext(1)
    expect(checks.clock.now - paidAt).toBe(15 * 60_000)
    expect(checks.armed()).toEqual([])
    await settle()
    // Given up, it stays late: the credits arriving later are not waited for, even by a page that
    // shows the balance itself (a subscription of the app's own).
    const shown = store.dispatch(echoApi.endpoints.getBalance.initiate())
    await settle()
    const asked = sentTo(echo, '/api/v1/balance').length
    store.dispatch(stopEchoSession())
    store.dispatch(startEchoSession(CONFIG))
    await settle()
    expect(checks.armed()).toEqual([])
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(asked)
    expect(topUp(store)).toEqual({ status: 'late', amount: null })
    shown.unsubscribe()
  })

  it('stopped and started again (a remount), the balance is asked at once and the backoff goes on', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const checks = topUpChecks()
    const store = await signInThroughEcho(checks.environment)
    paidAtCheckout(store)
    await settle()
    expect(checks.armed()).toEqual([2_000])
    store.dispatch(stopEchoSession())
    expect(checks.armed()).toEqual([])
    const asked = sentTo(echo, '/api/v1/balance').length
    echo.set({ balance: 7 })
    store.dispatch(startEchoSession(CONFIG))
    expect(checks.armed()).toEqual([4_000])
    await vi.waitFor(() => expect(topUp(store)).toEqual({ status: 'credited', amount: 2 }))
    expect(sentTo(echo, '/api/v1/balance').length).toBeGreaterThan(asked)
  })

  it('a check already due as the store stopped runs nothing: no balance asked, no check armed', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const checks = topUpChecks()
    const store = await signInThroughEcho(checks.environment)
    paidAtCheckout(store)
    await settle()
    const due = checks.takeNext()
    store.dispatch(stopEchoSession())
    const asked = sentTo(echo, '/api/v1/balance').length
    due()
    await settle()
    expect(checks.armed()).toEqual([])
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(asked)
  })

  it('a check already due as the credits arrived does nothing more', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const checks = topUpChecks()
    const store = await signInThroughEcho(checks.environment)
    paidAtCheckout(store)
    await settle()
    echo.set({ balance: 6 })
    checks.runNext()
    const due = checks.takeNext()
    await vi.waitFor(() => expect(topUp(store)).toEqual({ status: 'credited', amount: 1 }))
    due()
    expect(checks.armed()).toEqual([])
    expect(topUp(store)).toEqual({ status: 'credited', amount: 1 })
  })

  it('a sign-out ends the wait: no check is left, and the next sign-in credits nothing', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const checks = topUpChecks()
    const store = await signInThroughEcho(checks.environment)
    paidAtCheckout(store)
    await store.dispatch(signOut())
    expect(checks.armed()).toEqual([])
    echo.set({ balance: 50 })
    const next = await signInThroughEcho(checks.environment)
    await settle()
    expect(topUp(next)).toBeNull()
    expect(topUp(store)).toBeNull()
  })
})

describe('checkout coming back to this tab', () => {
  it('with no figure from before, the first balance is the one after: credited, with no amount', async () => {
    serveEcho({ balance: 5, freeTier: null })
    await signInThroughEcho()
    window.history.replaceState(null, '', '/?echo_top_up=page')
    const checks = topUpChecks()
    const returned = newStore(checks.environment)
    expect(topUp(returned)).toEqual({ status: 'waiting', amount: null })
    await vi.waitFor(() => expect(returned.getState().echo.balance.status).toBe('succeeded'))
    checks.runNext()
    await vi.waitFor(() => expect(topUp(returned)).toEqual({ status: 'credited', amount: null }))
  })

  it('with no figure from before, a balance answer without a figure is not taken for the credits', async () => {
    serveEcho({ balance: 5, freeTier: null })
    await signInThroughEcho()
    server.use(http.get(`${ECHO}/api/v1/balance`, () => HttpResponse.json({ balance: null })))
    window.history.replaceState(null, '', '/?echo_top_up=page')
    const returned = newStore()
    await vi.waitFor(() => expect(returned.getState().echo.balance.status).toBe('succeeded'))
    await settle()
    expect(topUp(returned)).toEqual({ status: 'waiting', amount: null })
  })

  it('with no figure from before, a balance of nothing is not the credits: it waits until they arrive', async () => {
    const echo = serveEcho({ balance: 0, freeTier: null })
    await signInThroughEcho()
    window.history.replaceState(null, '', '/?echo_top_up=page')
    const checks = topUpChecks()
    const returned = newStore(checks.environment)
    await vi.waitFor(() => expect(returned.getState().echo.balance.status).toBe('succeeded'))
    checks.runNext()
    await settle()
    expect(topUp(returned)).toEqual({ status: 'waiting', amount: null })
    echo.set({ balance: 10 })
    checks.runNext()
    await vi.waitFor(() => expect(topUp(returned)).toEqual({ status: 'credited', amount: null }))
  })

  it('is taken once: started again (a remount) on the same address, it waits for no second top-up', async () => {
    serveEcho({ balance: 5, freeTier: null })
    await signInThroughEcho()
    const closeWindow = vi.fn()
    const checks = topUpChecks()
    // A page whose address keeps the mark (an app's router that puts it back): only the first start acts on it.
    const store = newStore({
      ...checks.environment,
      location: { href: 'http://localhost:3000/?echo_top_up=tab' },
      history: { state: null, replaceState: () => undefined },
      closeWindow,
    })
    expect(checks.armed()).toEqual([2_000])
    checks.runNext()
    store.dispatch(stopEchoSession())
    store.dispatch(startEchoSession(CONFIG))
    expect(closeWindow).toHaveBeenCalledOnce()
    // The wait goes on where it was (the start's own check made, the one after it armed).
    expect(checks.armed()).toEqual([8_000])
  })
})

describe('the way back from checkout', () => {
  const linkAsked = (echo: ReturnType<typeof serveEcho>) =>
    (sentTo(echo, '/api/v1/stripe/payment-link').at(-1)!.body as { successUrl: string }).successUrl

  it('a checkout in a new tab is marked as such, and carries no credit (the tab it returns to knows it)', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const store = await signInThroughEcho()
    await store.dispatch(
      createPaymentLink({ amount: 5, successUrl: 'https://app.test/done' }, { checkoutIn: 'new-tab' }),
    )
    expect(linkAsked(echo)).toBe('https://app.test/done?echo_top_up=tab')
  })

  it('a return address that is not a URL is sent as it is', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const store = await signInThroughEcho()
    await store.dispatch(createPaymentLink({ amount: 5, successUrl: 'done.html' }, { checkoutIn: 'this-tab' }))
    expect(linkAsked(echo)).toBe('done.html')
  })
})

describe('why the balance is asked during a top-up', () => {
  it("each check's balance request says it is the checkout's, and which check it is (Redux DevTools reads it)", () => {
    vi.useFakeTimers()
    const actions: UnknownAction[] = []
    const watch = new TopUpWatch(
      (action) => (actions.push(action), action),
      () => ({ echo: { auth: { status: 'authenticated' } } }) as unknown as EchoRootState,
    )
    const env = {
      location: { href: 'http://localhost:3000/' },
      history: { state: null, replaceState: () => undefined },
      closeWindow: () => undefined,
      openChannel: undefined,
      now: () => Date.now(),
      setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
      clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    } as unknown as EchoEnvironment
    const { run, stop } = echoRuns().start(env)
    watch.start(run, env, { apiUrl: ECHO, appId: 'app-1' } as ResolvedEchoConfig)
    watch.paid(5)
    vi.advanceTimersByTime(2_000)
    const asked = actions.filter((action) => echoApi.util.invalidateTags.match(action))
    expect(asked.map((action) => (action as UnknownAction).meta)).toEqual([
      { cause: { by: 'checkout', check: 1 } },
      { cause: { by: 'checkout', check: 2 } },
    ])
    stop()
  })
})
