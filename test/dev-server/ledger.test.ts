import { describe, expect, test } from 'vitest'

import { Ledger, MIN_CREDIT_MICROS, toMicros } from '../../dev-server/ledger/ledger.mjs'

/** The demo app (fixtures.mjs), whose free tier is $1 a user from a $5 pool. */
const DEMO_APP_ID = '6f1d2c7a-3b8e-4e15-9c0a-2d7b5e8f4a31'
const OTHER_APP = '00000000-0000-4000-8000-000000000000'
const TEST_USER_ID = '0b9e4a6c-1f3d-4c8e-a2b5-9d7f6e1c3a58'

/** A ledger with `paid` USD of paid balance and `free` USD left of the demo app's $1 free tier. */
function ledgerWith(paid: number, free: number) {
  const ledger = new Ledger({ balance: paid })
  expect(ledger.setFreeTierLeft(DEMO_APP_ID, free)).toBe(true)
  return ledger
}

const freeLeft = (ledger: Ledger) => ledger.freeTier(DEMO_APP_ID).userSpendInfo.amountLeft

describe('billing, as Echo’s router does', () => {
  test('the demo app’s free tier is drawn first, then the paid balance, exact in micro-dollars', () => {
    const ledger = ledgerWith(10, 0.3)

    expect(ledger.charge(DEMO_APP_ID, toMicros(0.1))).toEqual({
      echoAppId: DEMO_APP_ID,
      freeMicros: 100_000,
      paidMicros: 0,
    })
    expect(ledger.charge(DEMO_APP_ID, toMicros(0.25))).toEqual({
      echoAppId: DEMO_APP_ID,
      freeMicros: 200_000,
      paidMicros: 50_000,
    })

    expect(ledger.balance()).toEqual({ totalPaid: 10, totalSpent: 0.05, balance: 9.95, currency: 'USD' })
    expect(ledger.freeTier(DEMO_APP_ID)).toMatchObject({
      spendPoolBalance: 4,
      userSpendInfo: { amountSpent: 1, spendLimit: 1, amountLeft: 0 },
    })
  })

  test('an app without a free tier draws the paid balance only', () => {
    const ledger = ledgerWith(1, 1)

    expect(ledger.charge(OTHER_APP, 300_000)).toEqual({ echoAppId: OTHER_APP, freeMicros: 0, paidMicros: 300_000 })
    expect(ledger.balance().balance).toBe(0.7)
    expect(freeLeft(ledger)).toBe(1)
    // Echo answers an app without a spend pool with nothing in it, not a 404.
    expect(ledger.freeTier(OTHER_APP)).toEqual({
      spendPoolBalance: 0,
      userSpendInfo: {
        userId: TEST_USER_ID,
        echoAppId: OTHER_APP,
        spendPoolId: null,
        amountSpent: 0,
        spendLimit: null,
        amountLeft: 0,
      },
    })
    expect(ledger.setFreeTierLeft(OTHER_APP, 0.5)).toBe(false)
  })

  test('a call is served while more than $0.0001 is left in all, and billed in full past zero', () => {
    const ledger = ledgerWith(0.00006, 0.00005)

    expect(ledger.charge(DEMO_APP_ID, 20_000)).toEqual({ echoAppId: DEMO_APP_ID, freeMicros: 50, paidMicros: 19_950 })
    expect(ledger.balance().balance).toBe(-0.01989)
    expect(freeLeft(ledger)).toBe(0)
    expect(ledger.charge(DEMO_APP_ID, 1)).toBeUndefined()
  })

  test.each([
    [0, 0],
    [0.0001, 0],
    [0, 0.0001],
    [0.00004, 0.00006],
  ])(
    'with $%s paid and $%s of free tier (at most $0.0001 in all) a call is refused and nothing is taken',
    (paid, free) => {
      const ledger = ledgerWith(paid, free)

      expect(toMicros(paid) + toMicros(free)).toBeLessThanOrEqual(MIN_CREDIT_MICROS)
      expect(ledger.charge(DEMO_APP_ID, 1)).toBeUndefined()
      expect(ledger.balance().balance).toBe(paid)
      expect(freeLeft(ledger)).toBe(free)
    },
  )

  test.each([
    [30_000, 9.98, 0],
    [80_000, 10, 0.03],
    [150_000, 10, 0.1],
  ])(
    'a refund of %i micro-dollars goes back where the charge came from, the paid balance first',
    (micros, balance, free) => {
      const ledger = ledgerWith(10, 0.1)
      const draw = ledger.charge(DEMO_APP_ID, 150_000)!

      ledger.refund(draw, micros)

      expect(ledger.balance().balance).toBe(balance)
      expect(freeLeft(ledger)).toBe(free)
    },
  )

  test('a refund after the free tier was set again gives back no more than what the tier has drawn', () => {
    const ledger = ledgerWith(10, 0.5)
    const draw = ledger.charge(DEMO_APP_ID, 100_000)!
    ledger.setFreeTierLeft(DEMO_APP_ID, 0.95)

    ledger.refund(draw, 100_000)

    expect(freeLeft(ledger)).toBe(1)
    expect(ledger.freeTier(DEMO_APP_ID).userSpendInfo.amountSpent).toBe(0)
  })

  test('the free tier left can be set from 0 to the spend limit, not above', () => {
    const ledger = new Ledger({ balance: 0 })

    expect(ledger.setFreeTierLeft(DEMO_APP_ID, 1.01)).toBe(false)
    expect(freeLeft(ledger)).toBe(1)
    expect(ledger.setFreeTierLeft(DEMO_APP_ID, 0)).toBe(true)
    expect(ledger.freeTier(DEMO_APP_ID)).toMatchObject({
      spendPoolBalance: 4,
      userSpendInfo: { amountSpent: 1, amountLeft: 0 },
    })
  })
})
