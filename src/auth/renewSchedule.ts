import type { EchoEnvironment } from './environment'

/** oidc-client-ts's own warning window; a short-lived token gets a third of its life instead. */
const MAX_RENEW_LEAD_MS = 60_000
/** However the clock disagrees with the server, renewals never come closer together than this. */
const MIN_RENEW_DELAY_MS = 1_000
/** The longest delay `setTimeout` keeps: browsers and Node fire a longer one at once. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647

/**
 * When to renew a token that expires at `expiresAt` and lived `lifetimeMs` in all (epoch ms): its
 * end minus a third of its life, at most 60 s before it. A 15 s token renews at 10 s, once.
 */
export function renewAtMs({ expiresAt, lifetimeMs }: { expiresAt: number; lifetimeMs: number }): number {
  return expiresAt - Math.min(MAX_RENEW_LEAD_MS, lifetimeMs / 3)
}

/**
 * The timer delay towards `renewAt`: at least a second, and never above what a timer can hold, so a
 * token that lives for weeks is waited for in steps (each re-checked with {@link isRenewDue}).
 */
export function renewTimerDelayMs(renewAt: number, now: number): number {
  return Math.min(Math.max(renewAt - now, MIN_RENEW_DELAY_MS), MAX_TIMER_DELAY_MS)
}

/** Whether a renew timer that fired at `now` found its token due, rather than firing early (a capped step). */
export function isRenewDue(renewAt: number, now: number): boolean {
  return now >= renewAt - MIN_RENEW_DELAY_MS
}

/**
 * The session's renew timer: one pending renew at a time, waited for in capped steps (each step
 * that fires early re-arms), so a token is renewed once, when due, never in a loop.
 */
export class RenewTimer {
  readonly #env: Pick<EchoEnvironment, 'setTimeout' | 'clearTimeout' | 'now'>
  #handle: unknown

  constructor(env: Pick<EchoEnvironment, 'setTimeout' | 'clearTimeout' | 'now'>) {
    this.#env = env
  }

  /** Calls `renew` once the token expiring at `expiresAt`, which lived `lifetimeMs`, is due; replaces any pending renew. */
  schedule(expiresAt: number, lifetimeMs: number, renew: () => void): void {
    this.cancel()
    const renewAt = renewAtMs({ expiresAt, lifetimeMs })
    const step = () => {
      if (isRenewDue(renewAt, this.#env.now())) return renew()
      this.#handle = this.#env.setTimeout(step, renewTimerDelayMs(renewAt, this.#env.now()))
    }
    this.#handle = this.#env.setTimeout(step, renewTimerDelayMs(renewAt, this.#env.now()))
  }

  cancel(): void {
    this.#env.clearTimeout(this.#handle)
  }
}
