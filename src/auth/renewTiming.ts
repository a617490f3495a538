// When the session renews: pure rules over times, for EchoSession's one timer.

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
 * How long the session waits after each refresh attempt in a row that could not reach Echo before
 * it tries again by itself: quickly at first (a blip, a Wi-Fi coming back after a laptop wakes),
 * then every 5 minutes, never in a loop. Coming back online, the page shown again and the next call
 * try at once.
 */
export const RECONNECT_DELAYS_MS: readonly number[] = [2_000, 5_000, 15_000, 60_000, 300_000]

/** The wait before the next attempt, after `failures` attempts in a row could not reach Echo (1 or more). */
export function reconnectDelayMs(failures: number): number {
  return RECONNECT_DELAYS_MS[Math.min(Math.max(failures, 1), RECONNECT_DELAYS_MS.length) - 1]!
}
