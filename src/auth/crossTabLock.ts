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
  const timeout = lockTimeout(REFRESH_TIMEOUT_MS)
  const granted = () => {
    timeout.stop()
    return work()
  }
  return locks.request(name, { mode: 'exclusive', signal: timeout.signal }, granted) as Promise<T>
}

/**
 * A signal that aborts after `ms`: `AbortSignal.timeout(ms)`, or a timer where the browser has Web
 * Locks but not that (Chrome 69-102, Safari 15.4), stopped once the lock is granted.
 */
function lockTimeout(ms: number): { signal: AbortSignal; stop: () => void } {
  if (typeof AbortSignal.timeout === 'function') return { signal: AbortSignal.timeout(ms), stop: () => undefined }
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new DOMException('The lock was not granted in time', 'TimeoutError')), ms)
  return { signal: controller.signal, stop: () => clearTimeout(timer) }
}
