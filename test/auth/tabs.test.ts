import { describe, expect, it } from 'vitest'

import { withCrossTabLock } from '../../src/auth/tabs'

type Locks = Pick<LockManager, 'request'>
interface Held {
  options: LockOptions
  grant: () => Promise<unknown>
}

/** A lock manager that grants only when the test says so, and gives up a wait whose signal aborts, as browsers do. */
function heldLocks(): { locks: Locks; held: Held[] } {
  const held: Held[] = []
  const request = (_name: string, options: LockOptions, work: () => Promise<unknown>) => {
    return new Promise((resolve, reject) => {
      let granted = false
      held.push({ options, grant: () => ((granted = true), work().then(resolve, reject)) })
      options.signal?.addEventListener('abort', () => !granted && reject(options.signal?.reason as Error))
    })
  }
  return { locks: { request } as unknown as Locks, held }
}

describe('withCrossTabLock', () => {
  it('without Web Locks runs the work at once', async () => {
    await expect(
      withCrossTabLock(undefined, 'n', new AbortController().signal, () => Promise.resolve('done')),
    ).resolves.toBe('done')
  })

  it("asks for the lock exclusively, with the caller's signal to stop waiting with", () => {
    const { locks, held } = heldLocks()
    const stop = new AbortController()
    void withCrossTabLock(locks, 'echo-rtk:refresh', stop.signal, () => Promise.resolve('done')).catch(() => undefined)
    expect(held[0]?.options).toMatchObject({ mode: 'exclusive', signal: stop.signal })
  })

  it('a wait given up before the lock is granted rejects with the reason, and the work never runs', async () => {
    const { locks } = heldLocks()
    const stop = new AbortController()
    let ran = false
    const waiting = withCrossTabLock(locks, 'n', stop.signal, () => Promise.resolve((ran = true))).catch(
      (error: unknown) => error,
    )
    stop.abort(new DOMException('No turn in time', 'TimeoutError'))
    expect(await waiting).toMatchObject({ name: 'TimeoutError' })
    expect(ran).toBe(false)
  })

  it('once granted, the lock is held until the work settles, whatever the signal does after', async () => {
    const { locks, held } = heldLocks()
    const stop = new AbortController()
    let finish = (): void => undefined
    const running = withCrossTabLock(
      locks,
      'n',
      stop.signal,
      () => new Promise<string>((resolve) => (finish = () => resolve('done'))),
    )
    void held[0]!.grant()
    stop.abort()
    finish()
    await expect(running).resolves.toBe('done')
  })
})
