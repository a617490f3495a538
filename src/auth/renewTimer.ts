import type { RefreshCause } from '../api/tokenProvider'
import type { EchoEnvironment } from './environment'
import { isRenewDue, reconnectDelayMs, renewAtMs, renewTimerDelayMs } from './sessionState'

/** What the timer is armed from: the signed-in session's token times and its refreshes in a row that failed. */
export interface RenewTimes {
  readonly expiresAt: number
  readonly lifetimeMs: number
  readonly failures: number
}

/**
 * A session's one pending timer: the renew of the current token, or the next try while Echo cannot be
 * reached. Armed again, it replaces what was pending, so a token is renewed once, when due, never in a loop.
 */
export class RenewTimer {
  readonly #env: Pick<EchoEnvironment, 'now' | 'setTimeout' | 'clearTimeout'>
  #handle: unknown

  constructor(env: Pick<EchoEnvironment, 'now' | 'setTimeout' | 'clearTimeout'>) {
    this.#env = env
  }

  /**
   * Calls `renew` with its cause: after the backoff's wait while Echo cannot be reached (`failures` above 0), else
   * at the token's renew time, waited for in capped steps (each step that fires early re-arms).
   */
  arm(times: RenewTimes, renew: (cause: RefreshCause) => void): void {
    this.clear()
    const env = this.#env
    if (times.failures > 0) {
      const retry = { by: 'retry', attempt: times.failures + 1 } as const
      this.#handle = env.setTimeout(() => renew(retry), reconnectDelayMs(times.failures))
      return
    }
    const renewAt = renewAtMs(times)
    const step = () => {
      if (isRenewDue(renewAt, env.now())) return renew({ by: 'renew-timer' })
      this.#handle = env.setTimeout(step, renewTimerDelayMs(renewAt, env.now()))
    }
    this.#handle = env.setTimeout(step, renewTimerDelayMs(renewAt, env.now()))
  }

  clear(): void {
    this.#env.clearTimeout(this.#handle)
    this.#handle = undefined
  }
}
