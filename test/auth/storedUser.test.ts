import fc from 'fast-check'
import { User } from 'oidc-client-ts'
import { describe, expect, it } from 'vitest'

import { expiresAtMs, isNewer, isOwnSignInState, newestUser, readStoredUser, removeSignInStates, userFromStorageString } from '../../src/auth/storedUser'

const user = (accessToken: string, expiresAt: number) =>
  new User({ access_token: accessToken, token_type: 'Bearer', profile: { sub: 'u1', iss: 'i', aud: 'a', exp: 0, iat: 0 }, expires_at: expiresAt })

function memoryStorage(entries: Record<string, string> = {}): Storage {
  const items = new Map(Object.entries(entries))
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size
    },
  }
}

describe('stored users', () => {
  it('reads the user oidc-client-ts stored, and nothing from a value that cannot be read', () => {
    const storage = memoryStorage({ good: user('t1', 100).toStorageString(), bad: '{not json' })
    expect(readStoredUser(storage, 'good')?.access_token).toBe('t1')
    expect(readStoredUser(storage, 'bad')).toBeNull()
    expect(readStoredUser(storage, 'missing')).toBeNull()
  })

  it('the newest user is the one whose tokens expire last', () => {
    const [old, fresh] = [user('t1', 100), user('t2', 200)]
    expect(newestUser([old, null, fresh])).toBe(fresh)
    expect(newestUser([null, null])).toBeNull()
    expect(isNewer(fresh, old)).toBe(true)
    expect(isNewer(old, fresh)).toBe(false)
    expect(isNewer(user('t1', 300), old)).toBe(false)
    expect(isNewer(old, null)).toBe(true)
  })

  it('a user with other tokens and the same expiry is newer: two refreshes within one second', () => {
    expect(isNewer(user('t2', 100), user('t1', 100))).toBe(true)
  })

  it('of users whose tokens expire at the same second, the first listed is the newest', () => {
    const [stored, inMemory] = [user('t1', 100), user('t2', 100)]
    expect(newestUser([stored, inMemory])).toBe(stored)
    expect(newestUser([inMemory, stored])).toBe(inMemory)
  })

  it("a sign-in answer is this app's only if this app stored its state", () => {
    const storage = memoryStorage({ 'oidc.s1': JSON.stringify({ id: 's1', client_id: 'app-123' }), 'oidc.s2': JSON.stringify({ id: 's2', client_id: 'other' }) })
    expect(isOwnSignInState(storage, 's1', 'app-123')).toBe(true)
    expect(isOwnSignInState(storage, 's2', 'app-123')).toBe(false)
    expect(isOwnSignInState(storage, 's3', 'app-123')).toBe(false)
  })
})

/** What a usable user is: a token, a profile subject, an expiry that reads as a number. */
function isUsable(user: User): boolean {
  return typeof user.access_token === 'string' && user.access_token !== '' && typeof user.profile.sub === 'string' && user.profile.sub !== '' && Number.isFinite(expiresAtMs(user))
}

describe('what storage and other tabs hand over is checked', () => {
  const stored = { access_token: 'a1', refresh_token: 'r1', token_type: 'Bearer', scope: 'llm:invoke', profile: { sub: 'u1' }, expires_at: 1_900_000_000 }

  it('takes a complete user, and nothing from one without a token, a profile subject or a text refresh token', () => {
    expect(userFromStorageString(JSON.stringify(stored))?.access_token).toBe('a1')
    for (const broken of [
      { ...stored, access_token: '' },
      { ...stored, access_token: undefined },
      { ...stored, profile: {} },
      { ...stored, profile: { sub: '' } },
      { ...stored, profile: null },
      { ...stored, refresh_token: 42 },
    ]) {
      expect(userFromStorageString(JSON.stringify(broken))).toBeNull()
    }
    expect(userFromStorageString(JSON.stringify({ ...stored, refresh_token: null }))?.refresh_token).toBeNull()
  })

  it('takes nothing that is not text, even a value that reads as a user once turned into text', () => {
    const text = JSON.stringify(stored)
    expect(userFromStorageString([text])).toBeNull()
    expect(userFromStorageString({ toString: () => text })).toBeNull()
  })

  it('an expiry stored as text, even as digits, counts as long past', () => {
    expect(expiresAtMs(userFromStorageString(JSON.stringify({ ...stored, expires_at: '1900000000' }))!)).toBe(0)
  })

  it('an expiry that cannot be read counts as long past', () => {
    for (const expiry of ['soon', null, Number.NaN, {}, undefined]) {
      const user = userFromStorageString(JSON.stringify({ ...stored, expires_at: expiry }))!
      expect(expiresAtMs(user)).toBe(0)
    }
    expect(expiresAtMs(userFromStorageString(JSON.stringify(stored))!)).toBe(1_900_000_000_000)
  })

  it('any string in: a usable user or nothing out, never a throw', () => {
    const userLike = fc.record(
      {
        access_token: fc.oneof(fc.string(), fc.constant(undefined), fc.integer()),
        refresh_token: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
        profile: fc.oneof(fc.record({ sub: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: [] }), fc.constant(null), fc.string()),
        expires_at: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
      },
      { requiredKeys: [] },
    )
    const text = fc.oneof(fc.string(), fc.json(), userLike.map((value) => JSON.stringify(value)))
    fc.assert(
      fc.property(text, (value) => {
        const user = userFromStorageString(value)
        const fromStorage = readStoredUser(memoryStorage({ key: value }), 'key')
        for (const read of [user, fromStorage]) if (read !== null) expect(isUsable(read)).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })

  it('any JSON value in (a hand-over message holds anything): a usable user or nothing out, never a throw', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const user = userFromStorageString(value)
        if (user !== null) expect(isUsable(user)).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })

  it('removes the sign-in states this app left, and only those', () => {
    const storage = memoryStorage({
      'oidc.ours-1': JSON.stringify({ id: 'ours-1', client_id: 'app-123', code_verifier: 'v1' }),
      'oidc.ours-2': JSON.stringify({ id: 'ours-2', client_id: 'app-123', code_verifier: 'v2' }),
      'oidc.theirs': JSON.stringify({ id: 'theirs', client_id: 'other' }),
      'oidc.user:https://echo.test:app-123': JSON.stringify(stored),
      'oidc.unreadable': '{',
      unrelated: JSON.stringify({ client_id: 'app-123' }),
    })
    removeSignInStates(storage, 'app-123')
    expect(Array.from({ length: storage.length }, (_, index) => storage.key(index)).sort()).toEqual([
      'oidc.theirs',
      'oidc.unreadable',
      'oidc.user:https://echo.test:app-123',
      'unrelated',
    ])
  })
})
