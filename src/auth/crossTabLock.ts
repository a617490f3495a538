import { REFRESH_TIMEOUT_MS } from '../api/refreshCoordinator'
import type { EchoEnvironment } from './environment'

/**
 * Runs `work` while holding the named Web Lock, so one tab at a time refreshes: Echo rotates the
 * refresh token on every use, and two tabs presenting the same one can revoke the whole grant.
 * Without Web Locks (Node, jsdom, old browsers) it runs `work` at once: single-tab behaviour.
 */
export function withCrossTabLock<T>(locks: EchoEnvironment['locks'], name: string, work: () => Promise<T>): Promise<T> {
  if (locks === undefined) return work()
  // A tab that hangs while holding the lock must not hold the others forever.
  return locks.request(name, { mode: 'exclusive', signal: timeoutSignal(REFRESH_TIMEOUT_MS) }, work) as Promise<T>
}

/** `AbortSignal.timeout(ms)`, also where the browser has Web Locks but not that (Chrome 69-102, Safari 15.4). */
function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms)
  const controller = new AbortController()
  setTimeout(() => controller.abort(new DOMException('The lock was not granted in time', 'TimeoutError')), ms)
  return controller.signal
}
