import type { EchoEnvironment } from './environment'

/**
 * How long the session waits after each refresh attempt in a row that could not reach Echo before
 * it tries again by itself (DESIGN §2): quickly at first (a blip, a Wi-Fi coming back after a
 * laptop wakes), then every 5 minutes, never in a loop. Coming back online, the page shown again
 * and the next call try at once.
 */
export const RECONNECT_DELAYS_MS: readonly number[] = [2_000, 5_000, 15_000, 60_000, 300_000]

/** The wait before the next attempt, after `failures` attempts in a row could not reach Echo (1 or more). */
export function reconnectDelayMs(failures: number): number {
  return RECONNECT_DELAYS_MS[Math.min(Math.max(failures, 1), RECONNECT_DELAYS_MS.length) - 1]!
}

/**
 * The session's way back after Echo could not be reached: counts the attempts that failed in a
 * row and keeps one timer for the next, on the capped backoff above.
 */
export class ReconnectSchedule {
  readonly #env: Pick<EchoEnvironment, 'setTimeout' | 'clearTimeout'>
  readonly #retry: () => void
  #failures = 0
  #handle: unknown

  constructor(env: Pick<EchoEnvironment, 'setTimeout' | 'clearTimeout'>, retry: () => void) {
    this.#env = env
    this.#retry = retry
  }

  /** Whether the last attempt could not reach Echo, and none has succeeded since. */
  get isReconnecting(): boolean {
    return this.#failures > 0
  }

  /** An attempt could not reach Echo: counted, so the next waits longer (`resume` arms it). True when this began an outage. */
  failed(): boolean {
    this.#failures += 1
    return this.#failures === 1
  }

  /** Arms the timer for the next attempt on the backoff, if an outage is on; replaces any armed one. */
  resume(): void {
    this.pause()
    if (this.#failures > 0) this.#handle = this.#env.setTimeout(this.#retry, reconnectDelayMs(this.#failures))
  }

  /** Stops the timer; the outage is still counted. */
  pause(): void {
    this.#env.clearTimeout(this.#handle)
    this.#handle = undefined
  }

  /** Echo was reached (or the session is over): no outage, no timer. */
  reset(): void {
    this.pause()
    this.#failures = 0
  }
}
