import { afterEach, describe, expect, it, vi } from 'vitest'

import { ReconnectSchedule, reconnectDelayMs, RECONNECT_DELAYS_MS } from '../../src/auth/reconnectSchedule'

afterEach(() => {
  vi.useRealTimers()
})

const timers = { setTimeout: (run: () => void, ms: number) => setTimeout(run, ms), clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>) }

describe('the way back after Echo could not be reached', () => {
  it('waits 2 s, 5 s, 15 s, 60 s, then every 5 minutes, never less', () => {
    expect(RECONNECT_DELAYS_MS).toEqual([2_000, 5_000, 15_000, 60_000, 300_000])
    expect([1, 2, 3, 4, 5, 6, 50].map(reconnectDelayMs)).toEqual([2_000, 5_000, 15_000, 60_000, 300_000, 300_000, 300_000])
    expect(reconnectDelayMs(0)).toBe(2_000)
  })

  it('an hour of failures costs 16 attempts, on the backoff, never a loop', async () => {
    vi.useFakeTimers()
    const at: number[] = []
    const schedule: ReconnectSchedule = new ReconnectSchedule(timers, () => {
      at.push(Date.now())
      schedule.failed()
      schedule.resume()
    })
    const start = Date.now()
    expect(schedule.failed()).toBe(true)
    schedule.resume()
    await vi.advanceTimersByTimeAsync(3_600_000)
    expect(at.length).toBe(15)
    expect(at.map((time, index) => time - (at[index - 1] ?? start))).toEqual([2_000, 5_000, 15_000, 60_000, ...Array<number>(11).fill(300_000)])
    expect(vi.getTimerCount()).toBe(1)
  })

  it('says when an outage begins (once), keeps its count over a pause, and forgets it on reset', async () => {
    vi.useFakeTimers()
    const retry = vi.fn()
    const schedule = new ReconnectSchedule(timers, retry)
    expect(schedule.isReconnecting).toBe(false)
    expect([schedule.failed(), schedule.failed()]).toEqual([true, false])
    schedule.resume()
    schedule.pause()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(retry).not.toHaveBeenCalled()
    schedule.resume()
    await vi.advanceTimersByTimeAsync(5_000)
    expect(retry).toHaveBeenCalledTimes(1)
    schedule.reset()
    expect(schedule.isReconnecting).toBe(false)
    expect(vi.getTimerCount()).toBe(0)
    expect(schedule.failed()).toBe(true)
  })
})
