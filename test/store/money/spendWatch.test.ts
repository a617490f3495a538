// The spend watch on a store of its own: what a call cost (the credit before it, and after it once
// the balance asked after it is in), today's total per user and app in storage, the local midnight,
// other tabs, the user's daily limit, and nothing watched once nobody is.
import { configureStore, type UnknownAction } from '@reduxjs/toolkit'
import { describe, expect, it } from 'vitest'

import type { EchoEnvironment } from '../../../src/auth/environment'
import { resolveConfig, type EchoConfig } from '../../../src/config'
import { signedIn, signedOut, signInFailed } from '../../../src/store/authSlice'
import { echoReducers } from '../../../src/store/echoReducer'
import {
  localDay,
  spentKey,
  spentOn,
  spentRecord,
  SpendWatch,
  untilMidnight,
} from '../../../src/store/money/spendWatch'
import { roundUsd } from '../../../src/store/money/credit'
import { dailyLimitKey, dailyLimitRecord } from '../../../src/store/money/dailyLimit'
import { echoRuns } from '../../support/echoRuns'

const CONFIG: EchoConfig = {
  appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
  apiUrl: 'https://echo.test',
  redirectUri: 'http://localhost:3000',
}
const RESOLVED = resolveConfig(CONFIG)
const ADA = { id: 'user-1', email: 'ada@example.com', name: 'Ada', picture: null }
const GRACE = { id: 'user-2', email: 'grace@example.com', name: 'Grace', picture: null }
/** 10:30 local time on 4 March 2030: far from the test machine's own clock. */
const MORNING = new Date(2030, 2, 4, 10, 30).getTime()
const TODAY = '2030-03-04'

/** A `Storage` in memory. */
function memoryStorage(): Storage {
  const items = new Map<string, string>()
  return {
    get length() {
      return items.size
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  }
}

/**
 * A SpendWatch on a store of its own, followed after every action as the runtime does, in a browser
 * the test plays: storage, the clock, timers, other tabs' storage events.
 */
function watchedStore({ started = true } = {}) {
  // As the runtime does: the watch listens on the store's listener middleware, for a run.
  const runs = echoRuns()
  const store = configureStore({
    reducer: echoReducers,
    middleware: (getDefault) => getDefault().concat(runs.middleware),
  })
  const watch = new SpendWatch(store.dispatch, store.getState)
  let current: ReturnType<typeof runs.start> | undefined
  const storage = memoryStorage()
  const listeners = new Set<(event: StorageEvent) => void>()
  const timers = new Map<number, { run: () => void; ms: number }>()
  let handles = 0
  const page = {
    clock: MORNING,
    storage,
    timers,
    /** How many storage listeners are subscribed. */
    listening: () => listeners.size,
    /** Another tab wrote `key` (or removed it: `null`) in the storage the tabs share. */
    otherTabWrote(key: string, newValue: string | null) {
      if (newValue === null) storage.removeItem(key)
      else storage.setItem(key, newValue)
      for (const listener of [...listeners]) listener({ key, newValue } as StorageEvent)
    },
  }
  const environment = {
    storage,
    now: () => page.clock,
    onStorage(listener: (event: StorageEvent) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    setTimeout(run: () => void, ms: number) {
      handles += 1
      timers.set(handles, { run, ms })
      return handles
    },
    clearTimeout: (handle: unknown) => void timers.delete(handle as number),
  } as Partial<EchoEnvironment> as EchoEnvironment
  /** The store's runtime starts (again): the watch listens for a new run. */
  const start = () => {
    if (current?.run.signal.aborted === false) return
    current = runs.start(environment)
    watch.start(current.run, environment, RESOLVED)
  }
  /** The store's runtime stops: its run ends. */
  const stop = () => current?.stop()
  if (started) start()
  const money = () => store.getState().echo.money
  let requests = 0
  /** The balance asked again (both halves), as RTK Query reports it; then each half answered. */
  const balanceAsked = () => {
    requests += 1
    const paid = `paid-${requests}`
    const free = `free-${requests}`
    store.dispatch(queryAction('getBalance', paid, 'pending'))
    store.dispatch(queryAction('getFreeBalance', free, 'pending'))
    return {
      /** The paid balance answers `balance`. */
      paid: (balance: unknown = undefined) =>
        store.dispatch(
          queryAction('getBalance', paid, 'fulfilled', {
            totalPaid: 20,
            totalSpent: 20 - (balance as number),
            balance,
            currency: 'USD',
          }),
        ),
      /** The free tier answers (the app has none: it fails, as Echo answers such an app). */
      free: () => store.dispatch(queryAction('getFreeBalance', free, 'rejected')),
    }
  }
  /** The credit is known: the balance asked, both halves answered. */
  const creditIs = (balance: number) => {
    const asked = balanceAsked()
    asked.paid(balance)
    asked.free()
  }
  const signIn = (user = ADA) =>
    store.dispatch(signedIn({ user, accessToken: 'access', expiresAt: page.clock + 900_000 }))
  return { store, watch, start, stop, environment, page, money, balanceAsked, creditIs, signIn }
}

/** An action of RTK Query's for `endpointName`'s request `requestId`, as `echoApi` dispatches it. */
function queryAction(
  endpointName: 'getBalance' | 'getFreeBalance',
  requestId: string,
  requestStatus: 'pending' | 'fulfilled' | 'rejected',
  payload?: unknown,
): UnknownAction {
  const arg = { type: 'query', endpointName, originalArgs: undefined, queryCacheKey: `${endpointName}(undefined)` }
  const rejected = requestStatus === 'rejected'
  return {
    type: `echoApi/executeQuery/${requestStatus}`,
    payload,
    ...(rejected ? { error: { message: 'Not Found' } } : {}),
    meta: {
      arg,
      requestId,
      requestStatus,
      ...(rejected ? { aborted: false, condition: false, rejectedWithValue: false } : {}),
    },
  }
}

/** Signed in as Ada with $10.00 of credit. */
function signedInWithCredit(balance = 10) {
  const watched = watchedStore()
  watched.signIn()
  watched.creditIs(balance)
  return watched
}

describe('what a call cost', () => {
  it('is the credit before it less the credit after it, once the balance asked after it has answered', () => {
    const { watch, money, balanceAsked, page } = signedInWithCredit(10)
    watch.callStarted()
    watch.callEnded()
    expect(money().lastCharge).toBeNull()
    page.clock += 5_000
    const asked = balanceAsked()
    asked.paid(9.9969)
    asked.free()
    expect(money()).toMatchObject({
      lastCharge: { amount: 0.0031, calls: 1, at: MORNING + 5_000 },
      spentToday: 0.0031,
      spentThisSession: 0.0031,
    })
  })

  it('waits for both halves of the balance: the paid balance alone, or the free tier alone, says nothing yet', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    watch.callEnded()
    const first = balanceAsked()
    first.paid(9.99)
    expect(money().lastCharge).toBeNull()
    first.free()
    expect(money().lastCharge).toMatchObject({ amount: 0.01 })

    watch.callStarted()
    watch.callEnded()
    const second = balanceAsked()
    second.free()
    expect(money().lastCharge).toMatchObject({ amount: 0.01 })
    expect(money().spentToday).toBe(0.01)
    second.paid(9.97)
    expect(money()).toMatchObject({ lastCharge: { amount: 0.02 }, spentToday: 0.03 })
  })

  it('answers to a balance asked while the call ran say nothing of it: only the balance asked after it counts', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    const during = balanceAsked()
    watch.callEnded()
    during.paid(10)
    during.free()
    expect(money().lastCharge).toBeNull()
    const after = balanceAsked()
    after.paid(9.95)
    after.free()
    expect(money().lastCharge).toMatchObject({ amount: 0.05, calls: 1 })
  })

  it('a free tier asked while the call ran, answering after it, does not stand for the free tier asked after it', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    const during = balanceAsked()
    watch.callEnded()
    const after = balanceAsked()
    during.free()
    after.paid(9.95)
    expect(money().lastCharge).toBeNull()
    after.free()
    expect(money().lastCharge).toMatchObject({ amount: 0.05 })
  })

  it('a paid balance asked while the call ran, answering after it, does not stand for the one asked after it', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    const during = balanceAsked()
    watch.callEnded()
    const after = balanceAsked()
    during.paid(10)
    after.free()
    expect(money().lastCharge).toBeNull()
    after.paid(9.95)
    expect(money().lastCharge).toMatchObject({ amount: 0.05 })
  })

  it('calls that overlap are one charge with their count, known once the last has ended', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    watch.callStarted()
    watch.callEnded()
    const whileOneRuns = balanceAsked()
    whileOneRuns.paid(9.99)
    whileOneRuns.free()
    expect(money().lastCharge).toBeNull()
    watch.callEnded()
    const after = balanceAsked()
    after.paid(9.98)
    after.free()
    expect(money().lastCharge).toMatchObject({ amount: 0.02, calls: 2 })
  })

  it('a call started while the calls before wait for their balance joins them: one charge from the credit before the first', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    watch.callEnded()
    const first = balanceAsked()
    first.paid(9.99)
    watch.callStarted()
    first.free()
    expect(money().lastCharge).toBeNull()
    watch.callEnded()
    const after = balanceAsked()
    after.free()
    expect(money().lastCharge).toBeNull()
    after.paid(9.97)
    expect(money().lastCharge).toMatchObject({ amount: 0.03, calls: 2 })
  })

  it('the next call after a charge starts a batch of its own, from the credit the charge left', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    for (const [after, amount] of [
      [9.99, 0.01],
      [9.96, 0.03],
    ]) {
      watch.callStarted()
      watch.callEnded()
      const asked = balanceAsked()
      asked.paid(after)
      asked.free()
      expect(money().lastCharge).toMatchObject({ amount, calls: 1 })
    }
    expect(money().spentToday).toBe(0.04)
  })

  it('a call that cost nothing (a free model) is a charge of $0.00', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    watch.callEnded()
    const asked = balanceAsked()
    asked.paid(10)
    asked.free()
    expect(money()).toMatchObject({ lastCharge: { amount: 0, calls: 1 }, spentToday: 0 })
  })

  it('credit that rose meanwhile (a top-up) says nothing of the calls: nothing is counted', () => {
    const { watch, money, balanceAsked, page } = signedInWithCredit(10)
    watch.callStarted()
    watch.callEnded()
    const asked = balanceAsked()
    asked.paid(15)
    asked.free()
    expect(money()).toMatchObject({ lastCharge: null, spentToday: 0 })
    expect(page.storage.getItem(spentKey(RESOLVED, ADA.id))).toBeNull()
  })

  it('with no credit known before the call (the balance not loaded yet), nothing is counted, whatever is left after', () => {
    for (const left of [9.99, 0]) {
      const { watch, money, balanceAsked, signIn } = watchedStore()
      signIn()
      watch.callStarted()
      watch.callEnded()
      const asked = balanceAsked()
      asked.paid(left)
      asked.free()
      expect(money()).toMatchObject({ lastCharge: null, spentToday: 0 })
    }
  })

  it('an answer after the call without a figure (an odd balance) counts nothing, and the next call starts afresh', () => {
    const { watch, money, balanceAsked, creditIs } = signedInWithCredit(10)
    watch.callStarted()
    watch.callEnded()
    const odd = balanceAsked()
    odd.paid(undefined)
    odd.free()
    expect(money().lastCharge).toBeNull()
    creditIs(10)
    watch.callStarted()
    watch.callEnded()
    const asked = balanceAsked()
    asked.paid(9.99)
    asked.free()
    expect(money().lastCharge).toMatchObject({ amount: 0.01, calls: 1 })
  })

  it('calls among which one was refused for want of credit (402) are not counted', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    watch.callStarted()
    watch.callRefused()
    watch.callEnded()
    watch.callEnded()
    const asked = balanceAsked()
    asked.paid(0)
    asked.free()
    expect(money()).toMatchObject({ lastCharge: null, spentToday: 0 })
  })

  it('an end reported twice for one call does not start the wait for its balance again', () => {
    const { watch, money, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    watch.callEnded()
    const asked = balanceAsked()
    watch.callEnded()
    asked.paid(9.99)
    asked.free()
    expect(money().lastCharge).toMatchObject({ amount: 0.01, calls: 1 })
  })

  it('calls made while nobody is signed in are nobody’s spend: nothing is stored or counted', () => {
    const { watch, money, creditIs, balanceAsked, page } = watchedStore()
    creditIs(10)
    watch.callStarted()
    watch.callEnded()
    const asked = balanceAsked()
    asked.paid(9.99)
    asked.free()
    expect(money().lastCharge).toBeNull()
    expect(page.storage.length).toBe(0)
  })

  it('a call ending, or refused, after the user signed out counts nothing and throws nothing', () => {
    const { watch, money, store, balanceAsked } = signedInWithCredit(10)
    watch.callStarted()
    store.dispatch(signedOut({ by: 'user' }))
    expect(() => watch.callRefused()).not.toThrow()
    expect(() => watch.callEnded()).not.toThrow()
    const asked = balanceAsked()
    asked.paid(9.99)
    asked.free()
    expect(money().lastCharge).toBeNull()
  })
})

describe("today's spend", () => {
  it("a charge adds to the day's total stored for the user, the app and its Echo, as the local day's record", () => {
    const { watch, balanceAsked, page } = signedInWithCredit(10)
    page.storage.setItem(spentKey(RESOLVED, ADA.id), spentRecord(TODAY, 1.5))
    watch.callStarted()
    watch.callEnded()
    const asked = balanceAsked()
    asked.paid(9.75)
    asked.free()
    expect(page.storage.getItem(`echo-rtk:spent:https://echo.test:${CONFIG.appId}:user-1`)).toBe(
      JSON.stringify({ day: TODAY, amount: 1.75 }),
    )
  })

  it("is read from storage when the user signs in: today's record, not another day's", () => {
    const today = watchedStore()
    today.page.storage.setItem(spentKey(RESOLVED, ADA.id), spentRecord(TODAY, 2.5))
    today.signIn()
    expect(today.money().spentToday).toBe(2.5)

    const yesterday = watchedStore()
    yesterday.page.storage.setItem(spentKey(RESOLVED, ADA.id), spentRecord('2030-03-03', 2.5))
    yesterday.signIn()
    expect(yesterday.money().spentToday).toBe(0)
  })

  it("a total stored on another day is not today's: the day's first charge starts from nothing", () => {
    const { watch, money, balanceAsked, page } = signedInWithCredit(10)
    page.storage.setItem(spentKey(RESOLVED, ADA.id), spentRecord('2030-03-03', 4.2))
    watch.callStarted()
    watch.callEnded()
    const asked = balanceAsked()
    asked.paid(9.99)
    asked.free()
    expect(money().spentToday).toBe(0.01)
    expect(spentOn(page.storage.getItem(spentKey(RESOLVED, ADA.id)), TODAY)).toBe(0.01)
  })

  it('starts again from nothing at the local midnight, and the midnight after that too', () => {
    const { money, page, signIn } = watchedStore()
    page.storage.setItem(spentKey(RESOLVED, ADA.id), spentRecord(TODAY, 3))
    signIn()
    expect(money().spentToday).toBe(3)
    const midnight = [...page.timers.values()][0]!
    // A second past midnight, so the new day has begun when the timer runs.
    expect(midnight.ms).toBe(untilMidnight(MORNING) + 1_000)
    page.timers.clear()
    page.clock = new Date(2030, 2, 5, 0, 0, 1).getTime()
    midnight.run()
    expect(money().spentToday).toBe(0)
    expect([...page.timers.values()].map(({ ms }) => ms)).toEqual([24 * 3_600_000 - 1_000 + 1_000])
  })

  it("another tab's charge shows here; another key's write changes neither the spend nor the limit", () => {
    const { money, page, signIn } = watchedStore()
    signIn()
    page.otherTabWrote(spentKey(RESOLVED, ADA.id), spentRecord(TODAY, 0.75))
    expect(money()).toMatchObject({ spentToday: 0.75 })
    expect(money().userDailyLimit).toBeUndefined()
    page.otherTabWrote('unrelated', spentRecord(TODAY, 9))
    page.otherTabWrote(spentKey(RESOLVED, GRACE.id), JSON.stringify({ limit: 4 }))
    expect(money().spentToday).toBe(0.75)
    expect(money().userDailyLimit).toBeUndefined()
  })

  it("another tab's new daily limit for this user shows here; a limit removed there is none here", () => {
    const { money, page, signIn } = watchedStore()
    signIn()
    page.otherTabWrote(dailyLimitKey(RESOLVED, ADA.id), dailyLimitRecord(3))
    expect(money()).toMatchObject({ userDailyLimit: 3, spentToday: 0 })
    page.otherTabWrote(dailyLimitKey(RESOLVED, ADA.id), null)
    expect(money().userDailyLimit).toBeNull()
  })
})

describe('whose spend is watched', () => {
  it("another user signing in reads their own figures, and hears their own tabs, not the last user's", () => {
    const { money, page, signIn } = watchedStore()
    page.storage.setItem(spentKey(RESOLVED, GRACE.id), spentRecord(TODAY, 6))
    page.storage.setItem(dailyLimitKey(RESOLVED, GRACE.id), dailyLimitRecord(8))
    signIn(ADA)
    expect(money()).toMatchObject({ spentToday: 0, userDailyLimit: undefined })
    signIn(GRACE)
    expect(money()).toMatchObject({ spentToday: 6, userDailyLimit: 8 })
    expect(page.listening()).toBe(1)
    page.otherTabWrote(spentKey(RESOLVED, ADA.id), spentRecord(TODAY, 1))
    expect(money().spentToday).toBe(6)
  })

  it('the same user signing in again (another tab signed in too) keeps counting the calls under way', () => {
    const { watch, money, balanceAsked, signIn, page } = signedInWithCredit(10)
    watch.callStarted()
    signIn(ADA)
    watch.callEnded()
    const asked = balanceAsked()
    asked.paid(9.99)
    asked.free()
    expect(money().lastCharge).toMatchObject({ amount: 0.01, calls: 1 })
    expect(page.listening()).toBe(1)
    expect(page.timers.size).toBe(1)
  })

  it.each([
    ['a sign-out', signedOut({ by: 'user' })],
    ['a sign-in that failed', signInFailed({ code: 'UNKNOWN_ERROR', reason: 'unknown', message: 'Sign-in failed' })],
  ] as [string, UnknownAction][])(
    "after %s nothing is watched: no other tab's spend, no midnight, no calls under way",
    (_name, leaving) => {
      const { watch, money, store, page, balanceAsked } = signedInWithCredit(10)
      watch.callStarted()
      store.dispatch(leaving)
      expect(page.listening()).toBe(0)
      expect(page.timers.size).toBe(0)
      const before = money()
      page.otherTabWrote(spentKey(RESOLVED, ADA.id), spentRecord(TODAY, 2))
      watch.callEnded()
      const asked = balanceAsked()
      asked.paid(9)
      asked.free()
      expect(money()).toEqual(before)
    },
  )

  it('stopped (the store stopped), it hears no tab and sets no midnight; started again, it watches the user still signed in', () => {
    const { start, stop, money, page, signIn } = watchedStore()
    page.storage.setItem(spentKey(RESOLVED, ADA.id), spentRecord(TODAY, 1))
    signIn()
    stop()
    expect(page.listening()).toBe(0)
    expect(page.timers.size).toBe(0)
    page.otherTabWrote(spentKey(RESOLVED, ADA.id), spentRecord(TODAY, 2))
    expect(money().spentToday).toBe(1)
    start()
    expect(money().spentToday).toBe(2)
    expect(page.listening()).toBe(1)
    expect(page.timers.size).toBe(1)
  })

  it('started a second time while it watches, it goes on as it was: the calls under way are still counted', () => {
    const { watch, start, money, balanceAsked, page } = signedInWithCredit(10)
    watch.callStarted()
    start()
    watch.callEnded()
    const asked = balanceAsked()
    asked.paid(9.99)
    asked.free()
    expect(money().lastCharge).toMatchObject({ amount: 0.01, calls: 1 })
    expect(page.listening()).toBe(1)
  })

  it('before it starts, it loads nobody and throws nothing; started, it watches who is signed in', () => {
    const { watch, start, stop, money, page, signIn } = watchedStore({ started: false })
    page.storage.setItem(spentKey(RESOLVED, ADA.id), spentRecord(TODAY, 1))
    expect(() => {
      watch.callStarted()
      watch.callEnded()
      stop()
      signIn()
    }).not.toThrow()
    expect(money().spentToday).toBeNull()
    start()
    expect(money().spentToday).toBe(1)
  })

  it('started with nobody signed in, it loads nothing until someone signs in', () => {
    const { money, page, signIn } = watchedStore()
    expect(money().spentToday).toBeNull()
    expect(page.listening()).toBe(0)
    signIn()
    expect(money().spentToday).toBe(0)
  })
})

describe("the user's daily limit", () => {
  it('chosen, it is kept for the user, the app and its Echo, and is in force at once; none (null) too', () => {
    const { watch, money, page, signIn } = watchedStore()
    signIn()
    watch.chooseDailyLimit(5)
    const key = `echo-rtk:daily-limit:https://echo.test:${CONFIG.appId}:user-1`
    expect(page.storage.getItem(key)).toBe('{"limit":5}')
    expect(money().userDailyLimit).toBe(5)
    watch.chooseDailyLimit(null)
    expect(page.storage.getItem(key)).toBe('{"limit":null}')
    expect(money().userDailyLimit).toBeNull()
  })

  it('with nobody signed in, none is kept or shown', () => {
    const { watch, money, page } = watchedStore()
    watch.chooseDailyLimit(5)
    expect(page.storage.length).toBe(0)
    expect(money().userDailyLimit).toBeUndefined()
  })
})

describe('the records in storage', () => {
  it('the day is the local calendar day, month and day in two digits', () => {
    expect(localDay(new Date(2024, 0, 5, 0, 0).getTime())).toBe('2024-01-05')
    expect(localDay(new Date(2024, 11, 31, 23, 59, 59).getTime())).toBe('2024-12-31')
    expect(localDay(new Date(2024, 9, 10, 12).getTime())).toBe('2024-10-10')
  })

  it('midnight is the next local one', () => {
    expect(untilMidnight(new Date(2030, 2, 4, 23, 0).getTime())).toBe(3_600_000)
    expect(untilMidnight(new Date(2030, 2, 4, 0, 0).getTime())).toBe(24 * 3_600_000)
  })

  it("what was spent reads 0 for another day's record, or for a record that is not one", () => {
    expect(spentOn(spentRecord(TODAY, 1.25), TODAY)).toBe(1.25)
    for (const text of [
      spentRecord('2030-03-03', 1.25),
      null,
      'not JSON',
      '1.25',
      '"text"',
      JSON.stringify({ day: TODAY }),
      JSON.stringify({ day: TODAY, amount: '1.25' }),
      `{"day":"${TODAY}","amount":1e999}`,
    ])
      expect(spentOn(text, TODAY)).toBe(0)
  })

  it('dollars are kept to a hundredth of a cent, so sums do not drift', () => {
    expect(roundUsd(0.1 + 0.2)).toBe(0.3)
    expect(roundUsd(0.00314)).toBe(0.0031)
  })
})
