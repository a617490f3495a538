// Where the OpenID provider keeps codes, refresh tokens, grants, sessions and interactions: an
// in-memory map per dev server (nothing survives a restart, which suits a dev server), with
// expiry, and the grant index that lets a revoked grant take all its tokens with it.

/** Entries are swept for expiry once the map has grown by this many since the last sweep. */
const SWEEP_EVERY = 500

/** @typedef {import('oidc-provider').AdapterPayload} AdapterPayload */

/**
 * What the map holds: a model's payload, a session uid's session id, or a grant's member keys.
 * @typedef {AdapterPayload | string | Set<string>} Stored
 */

/** Echo's grace for a rotated refresh token. */
export const REFRESH_GRACE_MS = 2 * 60 * 1000

/**
 * An oidc-provider adapter class over one private map. oidc-provider revokes the whole grant when
 * it sees a used code or refresh token, so Echo's two leniencies show a used one as unused.
 * @param {() => number} [now] epoch milliseconds
 * @param {{ refreshGrace?: boolean, codeReplay?: boolean }} [options] refreshGrace: a rotated refresh
 *   token still works for {@link REFRESH_GRACE_MS}, each reuse minting a new one; codeReplay: an
 *   authorization code works again for as long as it lives (Echo records no used codes)
 * @returns {import('oidc-provider').AdapterConstructor}
 */
export function createOidcStore(now = Date.now, { refreshGrace = false, codeReplay = false } = {}) {
  /** @type {Map<string, { value: Stored, expiresAt: number }>} */
  const entries = new Map()
  let sizeAtSweep = 0

  /** @param {string} key */
  const get = (key) => {
    const entry = entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= now()) {
      entries.delete(key)
      return undefined
    }
    return entry.value
  }
  /** @param {string} key @param {Stored} value @param {number | undefined} expiresIn seconds */
  const set = (key, value, expiresIn) => {
    if (entries.size - sizeAtSweep >= SWEEP_EVERY) {
      const time = now()
      for (const [stale, entry] of entries) if (entry.expiresAt <= time) entries.delete(stale)
      sizeAtSweep = entries.size
    }
    entries.set(key, { value, expiresAt: typeof expiresIn === 'number' ? now() + expiresIn * 1000 : Infinity })
  }
  /** @param {string} key */
  const payloadAt = (key) => {
    const value = get(key)
    return typeof value === 'object' && !(value instanceof Set) ? value : undefined
  }
  /**
   * Whether a used code or refresh token is shown as unused, so that it works again.
   * @param {string} model
   * @param {unknown} consumed epoch seconds of its first use
   */
  const usableAgain = (model, consumed) => {
    if (model === 'AuthorizationCode') return codeReplay
    const withinGrace = typeof consumed === 'number' && now() - consumed * 1000 < REFRESH_GRACE_MS
    return model === 'RefreshToken' && refreshGrace && withinGrace
  }
  /** @param {string} grantId */
  const grantKey = (grantId) => `grant:${grantId}`
  /** @param {string} grantId */
  const grantMembers = (grantId) => {
    const members = get(grantKey(grantId))
    return members instanceof Set ? members : undefined
  }

  return class OidcStore {
    /** @param {string} model the provider's model name: Session, Grant, RefreshToken, ... */
    constructor(model) {
      this.model = model
    }

    /** @param {string} id */
    key(id) {
      return `${this.model}:${id}`
    }

    /** @param {string} id @param {AdapterPayload} payload @param {number} [expiresIn] seconds */
    async upsert(id, payload, expiresIn) {
      const key = this.key(id)
      if (this.model === 'Session' && typeof payload.uid === 'string') set(`sessionUid:${payload.uid}`, id, expiresIn)
      if (typeof payload.grantId === 'string' && this.model !== 'Grant') {
        const members = grantMembers(payload.grantId) ?? new Set()
        members.add(key)
        set(grantKey(payload.grantId), members, undefined)
      }
      set(key, payload, expiresIn)
    }

    /** @param {string} id */
    async find(id) {
      const payload = payloadAt(this.key(id))
      if (payload?.consumed === undefined || !usableAgain(this.model, payload.consumed)) return payload
      const { consumed: _usedBefore, ...unused } = payload
      return unused
    }

    /** @param {string} uid */
    async findByUid(uid) {
      const id = get(`sessionUid:${uid}`)
      return typeof id === 'string' ? payloadAt(this.key(id)) : undefined
    }

    async findByUserCode() {
      return undefined
    }

    /** @param {string} id */
    async consume(id) {
      const payload = payloadAt(this.key(id))
      // The first use starts the grace; a reuse within it does not stretch it.
      if (payload && payload.consumed === undefined) payload.consumed = Math.floor(now() / 1000)
    }

    /** @param {string} id */
    async destroy(id) {
      entries.delete(this.key(id))
    }

    /** @param {string} grantId */
    async revokeByGrantId(grantId) {
      const members = grantMembers(grantId)
      if (members) for (const key of members) entries.delete(key)
      entries.delete(grantKey(grantId))
    }
  }
}
