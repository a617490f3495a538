import { describe, expect, it } from 'vitest'

import {
  isRenewDue,
  MAX_TIMER_DELAY_MS,
  reconnectDelayMs,
  RECONNECT_DELAYS_MS,
  renewAtMs,
  renewTimerDelayMs,
} from '../../src/auth/renewTiming'

const DAY = 86_400_000

describe('renew schedule', () => {
  it("renews a third of a short token's life before its end, and at most a minute before a long one's", () => {
    expect(renewAtMs({ expiresAt: 15_000, lifetimeMs: 15_000 })).toBe(10_000)
    expect(renewAtMs({ expiresAt: 900_000, lifetimeMs: 900_000 })).toBe(840_000)
  })

  it('never gives a timer more than it can hold: a 30-day wait goes in capped steps', () => {
    const renewAt = renewAtMs({ expiresAt: 30 * DAY, lifetimeMs: 30 * DAY })
    expect(renewTimerDelayMs(renewAt, 0)).toBe(MAX_TIMER_DELAY_MS)
    expect(MAX_TIMER_DELAY_MS).toBe(2 ** 31 - 1)
    // The capped step fires early: not due, so it re-arms for what is left.
    expect(isRenewDue(renewAt, MAX_TIMER_DELAY_MS)).toBe(false)
    expect(renewTimerDelayMs(renewAt, MAX_TIMER_DELAY_MS)).toBe(renewAt - MAX_TIMER_DELAY_MS)
    expect(isRenewDue(renewAt, renewAt)).toBe(true)
  })

  it('waits at least a second, however far the clock is past due', () => {
    expect(renewTimerDelayMs(10_000, 9_500)).toBe(1_000)
    expect(renewTimerDelayMs(10_000, 50_000)).toBe(1_000)
    expect(renewTimerDelayMs(10_000, 8_000)).toBe(2_000)
  })

  it('counts a timer that fires within a second of the renew time as due (timers may fire a little early)', () => {
    expect(isRenewDue(10_000, 9_000)).toBe(true)
    expect(isRenewDue(10_000, 8_999)).toBe(false)
  })
})

describe('the way back after Echo could not be reached', () => {
  it('waits 2 s, 5 s, 15 s, 60 s, then every 5 minutes, never less', () => {
    expect(RECONNECT_DELAYS_MS).toEqual([2_000, 5_000, 15_000, 60_000, 300_000])
    expect([1, 2, 3, 4, 5, 6, 50].map(reconnectDelayMs)).toEqual([
      2_000, 5_000, 15_000, 60_000, 300_000, 300_000, 300_000,
    ])
    expect(reconnectDelayMs(0)).toBe(2_000)
  })
})
