// The money in the store: each event's effect on what the user sees (today's spend, this session's,
// the last charge, the daily limits, a top-up), and nothing of a user's left once they are gone.
import { describe, expect, it } from 'vitest'

import type { MoneyState } from '../../../src/store/money/moneySlice'
import { sessionReset, signedOut } from '../../../src/store/authSlice'
import {
  charged,
  dailyLimitChosen,
  initialMoneyState,
  moneyLoaded,
  moneySlice,
  spentTodayChanged,
  topUpCredited,
  topUpLate,
  topUpWaiting,
} from '../../../src/store/money/moneySlice'

type MoneyAction = Parameters<typeof moneySlice.reducer>[1]
/** The money of a new store after `actions`. */
const reduce = (...actions: MoneyAction[]): MoneyState =>
  actions.reduce<MoneyState>(
    (state, action) => moneySlice.reducer(state, action),
    moneySlice.reducer(undefined, { type: 'init' }),
  )

const loaded = moneyLoaded({ spentToday: 1.25, userDailyLimit: 4, appDailyLimit: 2, lowBalanceAt: 0.5 })
const charge = (amount: number, spentToday: number, at = 1_000) =>
  charged({ charge: { amount, calls: 1, at }, spentToday })

describe('the money in a new store', () => {
  it('knows nothing yet: no spend read, no charge, no limit chosen, no top-up, low under $1.00', () => {
    expect(reduce()).toEqual({
      spentToday: null,
      spentThisSession: 0,
      lastCharge: null,
      userDailyLimit: undefined,
      appDailyLimit: null,
      lowBalanceAt: 1,
      topUp: null,
    })
  })
})

describe("the money's events", () => {
  it("reach the store as actions named echo/money/<event>, which an app's own listener can match", () => {
    const types = [
      moneyLoaded,
      spentTodayChanged,
      charged,
      dailyLimitChosen,
      topUpWaiting,
      topUpLate,
      topUpCredited,
    ].map((event) => event.type)
    expect(types).toEqual([
      'echo/money/moneyLoaded',
      'echo/money/spentTodayChanged',
      'echo/money/charged',
      'echo/money/dailyLimitChosen',
      'echo/money/topUpWaiting',
      'echo/money/topUpLate',
      'echo/money/topUpCredited',
    ])
  })
})

describe('a signed-in user', () => {
  it("starts with today's spend as stored, their own limit, and the app's limit and low-balance mark", () => {
    expect(reduce(loaded)).toEqual({
      ...initialMoneyState,
      spentToday: 1.25,
      userDailyLimit: 4,
      appDailyLimit: 2,
      lowBalanceAt: 0.5,
    })
  })

  it("who never chose a limit has none of their own (undefined), and the app's applies", () => {
    const state = reduce(moneyLoaded({ spentToday: 0, userDailyLimit: undefined, appDailyLimit: 3, lowBalanceAt: 1 }))
    expect(state.userDailyLimit).toBeUndefined()
    expect(state.appDailyLimit).toBe(3)
  })
})

describe('charges', () => {
  it("a charge becomes the last charge, adds to this session's spend, and today's total is the day's new figure", () => {
    const state = reduce(loaded, charge(0.25, 1.5, 7_000))
    expect(state).toMatchObject({
      lastCharge: { amount: 0.25, calls: 1, at: 7_000 },
      spentThisSession: 0.25,
      spentToday: 1.5,
    })
  })

  it("this session's spend adds up every charge seen here; the last charge is only the latest", () => {
    const state = reduce(
      loaded,
      charge(0.25, 1.5),
      charged({ charge: { amount: 0.5, calls: 3, at: 9 }, spentToday: 2 }),
    )
    expect(state).toMatchObject({ lastCharge: { amount: 0.5, calls: 3, at: 9 }, spentThisSession: 0.75, spentToday: 2 })
  })

  it("today's total changed in another tab, or a new day begun, replaces this tab's figure and leaves the rest", () => {
    const afterCharge = reduce(loaded, charge(0.25, 1.5))
    const otherTab = moneySlice.reducer(afterCharge, spentTodayChanged(2.75))
    expect(otherTab).toEqual({ ...afterCharge, spentToday: 2.75 })
    expect(moneySlice.reducer(otherTab, spentTodayChanged(0))).toEqual({ ...afterCharge, spentToday: 0 })
  })
})

describe('the daily limit', () => {
  it('a limit chosen replaces the one before, and none (null) is a choice too', () => {
    expect(reduce(loaded, dailyLimitChosen(10)).userDailyLimit).toBe(10)
    expect(reduce(loaded, dailyLimitChosen(10), dailyLimitChosen(null)).userDailyLimit).toBeNull()
    expect(reduce(loaded, dailyLimitChosen(null)).appDailyLimit).toBe(2)
  })
})

describe('a top-up', () => {
  it('waits with no amount, then is credited with what came in (null when no figure was known before)', () => {
    expect(reduce(topUpWaiting()).topUp).toEqual({ status: 'waiting', amount: null })
    expect(reduce(topUpWaiting(), topUpCredited(5)).topUp).toEqual({ status: 'credited', amount: 5 })
    expect(reduce(topUpWaiting(), topUpCredited(null)).topUp).toEqual({ status: 'credited', amount: null })
  })

  it('turns late only while waiting: a credited one stays credited, a late one late, and none stays none', () => {
    expect(reduce(topUpWaiting(), topUpLate()).topUp).toEqual({ status: 'late', amount: null })
    expect(reduce(topUpWaiting(), topUpCredited(5), topUpLate()).topUp).toEqual({ status: 'credited', amount: 5 })
    expect(reduce(topUpWaiting(), topUpLate(), topUpLate()).topUp).toEqual({ status: 'late', amount: null })
    expect(reduce(loaded, topUpLate())).toEqual(reduce(loaded))
  })

  it('a late top-up whose credits then arrive is credited', () => {
    expect(reduce(topUpWaiting(), topUpLate(), topUpCredited(2)).topUp).toEqual({ status: 'credited', amount: 2 })
  })
})

describe('when the user leaves', () => {
  const used = [loaded, charge(0.25, 1.5), dailyLimitChosen(9), topUpWaiting()]

  it.each([
    ['a sign-out', signedOut({ by: 'user' })],
    [
      'the session ending',
      signedOut(
        { by: 'echo', error: 'invalid_grant' },
        { code: 'UNKNOWN_ERROR', reason: 'session-ended', message: 'Your session has ended. Sign in again.' },
      ),
    ],
    ['resetting the store (resetEchoStore)', sessionReset()],
  ] as [string, MoneyAction][])(
    '%s forgets every figure of theirs: the money is as in a new store',
    (_name, leaving) => {
      expect(reduce(...used)).not.toEqual(initialMoneyState)
      expect(reduce(...used, leaving)).toEqual(initialMoneyState)
    },
  )

  it("another slice's action leaves the user's figures as they are", () => {
    expect(reduce(...used, { type: 'echo/auth/tokenRefreshStarted' })).toEqual(reduce(...used))
  })
})
