// The daily limit and its gate, on their own: the limit in force, the check before a billed call, what a
// user may set, and the record that keeps their choice.
import { describe, expect, it } from 'vitest'

import { echoReducer } from '../../../src/store/echoReducer'
import type { EchoRootState } from '../../../src/store/echoReducer'
import {
  dailyLimitProblem,
  dailyLimitRecord,
  MAX_DAILY_LIMIT,
  refuseOverDailyLimit,
  selectDailyLimit,
  selectIsSpendLimitReached,
  storedDailyLimit,
} from '../../../src/store/money/dailyLimit'

/** State with the money slice at `money`. */
function withMoney(money: Partial<EchoRootState['echo']['money']>): EchoRootState {
  const echo = echoReducer(undefined, { type: 'init' })
  return { echo: { ...echo, money: { ...echo.money, ...money } } } as EchoRootState
}

describe('the daily limit in force', () => {
  it("is the user's own for this app, else the app's; a user's none (null) stands over the app's", () => {
    expect(selectDailyLimit(withMoney({ appDailyLimit: 5 }))).toBe(5)
    expect(selectDailyLimit(withMoney({ appDailyLimit: 5, userDailyLimit: 2 }))).toBe(2)
    expect(selectDailyLimit(withMoney({ appDailyLimit: 5, userDailyLimit: null }))).toBeNull()
  })
})

describe('the gate before a billed call', () => {
  it("lets a call through under the limit, with no limit, and before today's spend is known", () => {
    for (const money of [
      { appDailyLimit: 5, spentToday: 4.99 },
      { appDailyLimit: null, spentToday: 100 },
      { appDailyLimit: 5, spentToday: null },
    ]) {
      expect(selectIsSpendLimitReached(withMoney(money))).toBe(false)
      expect(() => refuseOverDailyLimit(withMoney(money))).not.toThrow()
    }
  })

  it('refuses at the limit, saying what was spent of what', () => {
    const state = withMoney({ appDailyLimit: 5, spentToday: 5.2 })
    expect(selectIsSpendLimitReached(state)).toBe(true)
    expect(() => refuseOverDailyLimit(state)).toThrow(
      expect.objectContaining({
        reason: 'spend-limit',
        message: "Today's limit for this app is reached ($5.20 of $5.00): raise it in your Echo account to keep going",
      }),
    )
  })
})

describe('what a user may set', () => {
  it(`an amount from 0.01 to ${MAX_DAILY_LIMIT}, or null for none; anything else says what was wrong`, () => {
    for (const limit of [0.01, 5, MAX_DAILY_LIMIT, null]) expect(dailyLimitProblem(limit)).toBeNull()
    for (const limit of [0, -1, MAX_DAILY_LIMIT + 1, Number.NaN, '5', undefined])
      // What a caller without types may pass.
      expect(dailyLimitProblem(limit as number)).toMatchObject({
        reason: 'bad-argument',
        message: `The daily limit must be an amount in US dollars from 0.01 to 10000, or null for none (got ${String(limit)})`,
      })
  })
})

describe('the record in storage', () => {
  it('the daily limit reads as chosen (an amount, or null for none), and as never chosen when the record is not one', () => {
    expect(storedDailyLimit(dailyLimitRecord(5))).toBe(5)
    expect(storedDailyLimit(dailyLimitRecord(0.01))).toBe(0.01)
    expect(storedDailyLimit(dailyLimitRecord(null))).toBeNull()
    for (const text of [
      null,
      'not JSON',
      '5',
      '"text"',
      '{}',
      JSON.stringify({ limit: 0 }),
      JSON.stringify({ limit: -5 }),
      JSON.stringify({ limit: '5' }),
      '{"limit":1e999}',
    ])
      expect(storedDailyLimit(text)).toBeUndefined()
  })
})
