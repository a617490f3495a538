/** What Echo said of a token: whose it is, or why it is refused. */
export type TokenVerdict =
  { valid: true; userId: string; appId: string; scope: string } | { valid: false; error: string }

/** How long a verdict is kept at most, whatever the token's own expiry. */
export const VERDICT_TTL_MS = 5 * 60_000

interface Kept {
  verdict: Promise<TokenVerdict>
  until: number
}

/** What a token is kept under: its SHA-256, so no token is held. */
type TokenKey = (token: string) => string | Promise<string>

/**
 * Echo's verdicts on tokens, kept per token until it expires (at most 5 minutes), so a chat of many
 * turns asks Echo once. Keyed by the token's SHA-256, so no token is held here; bounded, the oldest
 * out first. A verdict still being asked for is shared by every request that needs it; one that
 * could not be had (Echo out of reach) is not kept.
 */
export class TokenVerdicts {
  readonly #kept = new Map<string, Kept>()
  readonly #limit: number
  readonly #keyOf: TokenKey = tokenKeyFunction()

  constructor(limit = 1_000) {
    this.#limit = limit
  }

  /** What `token` is kept under: a string at once where Node's hash is at hand, else a promise of one. */
  keyOf(token: string): string | Promise<string> {
    return this.#keyOf(token)
  }

  /** The verdict kept under `key` at `now`, if there is one. */
  kept(key: string, now: number): Promise<TokenVerdict> | undefined {
    const kept = this.#kept.get(key)
    if (kept !== undefined && kept.until > now) return kept.verdict
    if (kept !== undefined) this.#kept.delete(key)
    return undefined
  }

  /**
   * Keeps `verdict` under `key` until `expiresAt` (epoch ms), 5 minutes from `now` at most; one that fails is
   * dropped.
   */
  keep(key: string, verdict: Promise<TokenVerdict>, expiresAt: number, now: number): Promise<TokenVerdict> {
    this.#kept.set(key, { verdict, until: Math.min(expiresAt, now + VERDICT_TTL_MS) })
    if (this.#kept.size > this.#limit) this.#kept.delete(this.#kept.keys().next().value as string)
    verdict.catch(() => {
      if (this.#kept.get(key)?.verdict === verdict) this.#kept.delete(key)
    })
    return verdict
  }

  get size(): number {
    return this.#kept.size
  }
}

/**
 * SHA-256 in hex: Node's own (`process.getBuiltinModule`, a few microseconds) where there is one,
 * else Web Crypto (edge runtimes), which is slower and asynchronous.
 */
function tokenKeyFunction(): TokenKey {
  const nodeCrypto = (
    globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }
  ).process?.getBuiltinModule?.('node:crypto') as
    { createHash(algorithm: string): { update(text: string): { digest(encoding: 'hex'): string } } } | undefined
  if (nodeCrypto !== undefined) return (token) => nodeCrypto.createHash('sha256').update(token).digest('hex')
  return async (token) => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))
    let hex = ''
    for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0')
    return hex
  }
}
