import type { User } from 'oidc-client-ts'

import type { EchoEnvironment } from './environment'
import { ReconnectSchedule } from './reconnectSchedule'
import { RenewTimer } from './renewSchedule'
import { expiresAtMs } from './storedUser'

/**
 * When the session renews next (DESIGN §2): at its token's renew time, or on the backoff while
 * Echo cannot be reached, one timer at a time. Joins the renew timer and the reconnect schedule.
 */
export class RenewPlan {
  readonly #env: EchoEnvironment
  readonly #renew: () => void
  readonly #timer: RenewTimer
  readonly #reconnect: ReconnectSchedule
  /** How long the current token lived in all: its renew time is counted from it. */
  #lifetimeMs = 0

  constructor(env: EchoEnvironment, renew: () => void) {
    this.#env = env
    this.#renew = renew
    this.#timer = new RenewTimer(env)
    this.#reconnect = new ReconnectSchedule(env, renew)
  }

  /** Whether the last attempt could not reach Echo, and none has succeeded since. */
  get isReconnecting(): boolean {
    return this.#reconnect.isReconnecting
  }

  /** New tokens: their life is counted from now, and an outage is over. True when this ended one. */
  renewed(user: User): boolean {
    const endedOutage = this.#reconnect.isReconnecting
    this.#reconnect.reset()
    this.#lifetimeMs = Math.max(expiresAtMs(user) - this.#env.now(), 0)
    return endedOutage
  }

  /** Arms the next renew of `user` (none for `null`): the backoff during an outage, else the token's renew time. */
  schedule(user: User | null): void {
    if (user === null) return this.#timer.cancel()
    if (this.#reconnect.isReconnecting) {
      this.#timer.cancel()
      return this.#reconnect.resume()
    }
    this.#timer.schedule(expiresAtMs(user), this.#lifetimeMs, this.#renew)
  }

  /** An attempt could not reach Echo: counted, so the next waits longer. True when this began an outage. */
  failed(): boolean {
    return this.#reconnect.failed()
  }

  /** Stops both timers; an outage stays counted, for a restart. */
  pause(): void {
    this.#timer.cancel()
    this.#reconnect.pause()
  }

  /** Nobody to renew: no timer, no outage. */
  reset(): void {
    this.#timer.cancel()
    this.#reconnect.reset()
  }
}
