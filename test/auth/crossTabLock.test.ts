import { afterEach, describe, expect, it, vi } from 'vitest'

import { REFRESH_TIMEOUT_MS } from '../../src/api/refreshCoordinator'
import { withCrossTabLock } from '../../src/auth/crossTabLock'

type Locks = Pick<LockManager, 'request'>
interface Held {
  options: LockOptions
  grant: () => Promise<unknown>
}

/** A lock manager that grants only when the test says so. */
function heldLocks(): { locks: Locks; held: Held[] } {
  const held: Held[] = []
  const request = (_name: string, options: LockOptions, work: () => Promise<unknown>) => {
    return new Promise((resolve, reject) => {
      held.push({ options, grant: () => work().then(resolve, reject) })
      options.signal?.addEventListener('abort', () => reject(options.signal?.reason as Error))
    })
  }
  return { locks: { request } as unknown as Locks, held }
}

describe('withCrossTabLock', () => {
  const timeout = AbortSignal.timeout

  afterEach(() => {
    AbortSignal.timeout = timeout
    vi.useRealTimers()
  })

  it('without Web Locks runs the work at once', async () => {
    await expect(withCrossTabLock(undefined, 'n', () => Promise.resolve('done'))).resolves.toBe('done')
  })

  it('asks for the lock exclusively, passing a signal to stop waiting with (not yet aborted)', () => {
    const { locks, held } = heldLocks()
    void withCrossTabLock(locks, 'echo-rtk:refresh', () => Promise.resolve('done')).catch(() => undefined)
    expect(held[0]?.options.mode).toBe('exclusive')
    expect(held[0]?.options.signal).toBeInstanceOf(AbortSignal)
    expect(held[0]?.options.signal?.aborted).toBe(false)
  })

  describe('where the browser has Web Locks but no AbortSignal.timeout', () => {
    it('times the wait out with a timer of its own', async () => {
      AbortSignal.timeout = undefined as never
      vi.useFakeTimers()
      const { locks } = heldLocks()
      const outcome = withCrossTabLock(locks, 'n', () => Promise.resolve('done')).catch((error: unknown) => error)
      await vi.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS)
      expect(await outcome).toMatchObject({ name: 'TimeoutError', message: 'The lock was not granted in time' })
    })

    it('stops that timer once the lock is granted: nothing is left pending', async () => {
      AbortSignal.timeout = undefined as never
      vi.useFakeTimers()
      const { locks, held } = heldLocks()
      const running = withCrossTabLock(locks, 'n', () => Promise.resolve('done'))
      expect(vi.getTimerCount()).toBe(1)
      void held[0]!.grant()
      await expect(running).resolves.toBe('done')
      expect(vi.getTimerCount()).toBe(0)
    })
  })
})
