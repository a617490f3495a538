import { afterEach, describe, expect, it, vi } from 'vitest'

import { isRenewDue, MAX_TIMER_DELAY_MS, RenewTimer, renewAtMs, renewTimerDelayMs } from '../../src/auth/renewSchedule'

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

describe('the renew timer', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  /** A renew timer on fake timers, and how many times each token was renewed. */
  function renewTimer() {
    vi.useFakeTimers({ now: 0 })
    const timer = new RenewTimer({ setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>), now: () => Date.now() })
    const renewed: string[] = []
    return { timer, renewed, renew: (token: string) => () => void renewed.push(token) }
  }

  it('renews a 15 s token once, at 10 s', () => {
    const { timer, renewed, renew } = renewTimer()
    timer.schedule(15_000, 15_000, renew('t1'))
    vi.advanceTimersByTime(9_999)
    expect(renewed).toEqual([])
    vi.advanceTimersByTime(1)
    expect(renewed).toEqual(['t1'])
    vi.advanceTimersByTime(60_000)
    expect(renewed).toEqual(['t1'])
  })

  it('a new schedule replaces the pending renew: only the newest token is renewed', () => {
    const { timer, renewed, renew } = renewTimer()
    timer.schedule(15_000, 15_000, renew('t1'))
    timer.schedule(30_000, 15_000, renew('t2'))
    vi.advanceTimersByTime(60_000)
    expect(renewed).toEqual(['t2'])
  })

  it('a cancelled renew never fires', () => {
    const { timer, renewed, renew } = renewTimer()
    timer.schedule(15_000, 15_000, renew('t1'))
    timer.cancel()
    vi.advanceTimersByTime(60_000)
    expect(renewed).toEqual([])
  })
})
