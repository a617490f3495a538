import { User } from 'oidc-client-ts'
import { describe, expect, it } from 'vitest'

import { isNewer, isOwnSignInState, newestUser, readStoredUser } from '../../src/auth/storedUser'

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
  it('reads the user oidc-client-ts stored, and removes a value that cannot be read', () => {
    const storage = memoryStorage({ good: user('t1', 100).toStorageString(), bad: '{not json' })
    expect(readStoredUser(storage, 'good')?.access_token).toBe('t1')
    expect(readStoredUser(storage, 'bad')).toBeNull()
    expect(storage.getItem('bad')).toBeNull()
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

  it("a sign-in answer is this app's only if this app stored its state", () => {
    const storage = memoryStorage({ 'oidc.s1': JSON.stringify({ id: 's1', client_id: 'app-123' }), 'oidc.s2': JSON.stringify({ id: 's2', client_id: 'other' }) })
    expect(isOwnSignInState(storage, 's1', 'app-123')).toBe(true)
    expect(isOwnSignInState(storage, 's2', 'app-123')).toBe(false)
    expect(isOwnSignInState(storage, 's3', 'app-123')).toBe(false)
  })
})
