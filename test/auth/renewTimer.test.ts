// The session's one timer: a token renewed once, when due, however long it lives; the backoff's next try
// while Echo cannot be reached; and never two timers pending at once.
import { afterEach, describe, expect, it, vi } from 'vitest'

import type { RefreshCause } from '../../src/api/tokenProvider'
import { RenewTimer } from '../../src/auth/renewTimer'
import { MAX_TIMER_DELAY_MS } from '../../src/auth/sessionState'

function timerOnFakeClock() {
  vi.useFakeTimers({ now: 0 })
  const env = {
    now: () => Date.now(),
    setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  }
  const causes: RefreshCause[] = []
  return { timer: new RenewTimer(env), causes, renew: (cause: RefreshCause) => causes.push(cause) }
}

describe('the renew timer', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('renews a 15-second token once, at 10 s (a third of its life before its end)', () => {
    const { timer, causes, renew } = timerOnFakeClock()
    timer.arm({ expiresAt: 15_000, lifetimeMs: 15_000, failures: 0 }, renew)
    vi.advanceTimersByTime(8_999)
    expect(causes).toEqual([])
    vi.advanceTimersByTime(60_000)
    expect(causes).toEqual([{ by: 'renew-timer' }])
  })

  it('waits for a token that lives for weeks in steps a timer can hold, and renews it once, at the end', () => {
    const { timer, causes, renew } = timerOnFakeClock()
    const weeks = 6 * 7 * 24 * 3_600_000
    timer.arm({ expiresAt: weeks, lifetimeMs: weeks, failures: 0 }, renew)
    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS)
    expect(causes).toEqual([])
    vi.advanceTimersByTime(weeks - MAX_TIMER_DELAY_MS)
    expect(causes).toEqual([{ by: 'renew-timer' }])
  })

  it("tries again after the backoff's wait while Echo cannot be reached, naming the attempt", () => {
    const { timer, causes, renew } = timerOnFakeClock()
    timer.arm({ expiresAt: 3_600_000, lifetimeMs: 3_600_000, failures: 2 }, renew)
    vi.advanceTimersByTime(4_999)
    expect(causes).toEqual([])
    vi.advanceTimersByTime(1)
    expect(causes).toEqual([{ by: 'retry', attempt: 3 }])
  })

  it('armed again, replaces what was pending; cleared, fires nothing', () => {
    const { timer, causes, renew } = timerOnFakeClock()
    timer.arm({ expiresAt: 3_600_000, lifetimeMs: 3_600_000, failures: 1 }, renew)
    timer.arm({ expiresAt: 15_000, lifetimeMs: 15_000, failures: 0 }, renew)
    vi.advanceTimersByTime(12_000)
    expect(causes).toEqual([{ by: 'renew-timer' }])
    timer.arm({ expiresAt: 30_000, lifetimeMs: 15_000, failures: 0 }, renew)
    timer.clear()
    vi.advanceTimersByTime(3_600_000)
    expect(causes).toEqual([{ by: 'renew-timer' }])
    expect(vi.getTimerCount()).toBe(0)
  })
})
