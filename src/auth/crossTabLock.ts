import type { EchoEnvironment } from './environment'

/**
 * Runs `work` while holding the named Web Lock, so one tab at a time refreshes: Echo rotates the
 * refresh token on every use, and two tabs presenting the same one can revoke the whole grant.
 * `signal` gives up waiting for the lock (a tab that hangs while holding it must not hold the
 * others forever); once granted, the lock is held until `work` settles, whatever the signal does.
 * Without Web Locks (Node, jsdom, old browsers) it runs `work` at once: single-tab behaviour.
 */
export function withCrossTabLock<T>(locks: EchoEnvironment['locks'], name: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  if (locks === undefined) return work()
  return locks.request(name, { mode: 'exclusive', signal }, work) as Promise<T>
}
