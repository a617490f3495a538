/** oidc-client-ts's own warning window; a short-lived token gets a third of its life instead. */
const MAX_RENEW_LEAD_MS = 60_000
/** However the clock disagrees with the server, renewals never come closer together than this. */
const MIN_RENEW_DELAY_MS = 1_000

/**
 * How long to wait before renewing a token that expires at `expiresAt` and lived `lifetimeMs` in
 * all: its end minus a third of its life (at most 60 s). A 15 s token renews at 10 s, once.
 */
export function renewDelayMs({ expiresAt, lifetimeMs, now }: { expiresAt: number; lifetimeMs: number; now: number }): number {
  const lead = Math.min(MAX_RENEW_LEAD_MS, lifetimeMs / 3)
  return Math.max(expiresAt - now - lead, MIN_RENEW_DELAY_MS)
}
