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
  return locks.request(name, { mode: 'exclusive', signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS) }, work) as Promise<T>
}
