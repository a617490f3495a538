import fc from 'fast-check'
import { User } from 'oidc-client-ts'
import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  expiresAtMs,
  isNewer,
  isOwnSignInState,
  isPopupSignInState,
  newestUser,
  POPUP_REQUEST_TYPE,
  readStoredUser,
  refreshExpiresAtMs,
  removeSignInStates,
  takeStoredUser,
  toStorageString,
  userFromStorageString,
  withRefreshLife,
  type StoredUser,
} from '../../src/auth/storedUser'
import { memoryStorage } from '../support/memoryStorage'

const user = (accessToken: string, expiresAt: number): StoredUser => ({
  access_token: accessToken,
  token_type: 'Bearer',
  profile: { sub: 'u1' },
  expires_at: expiresAt,
})

/** What oidc-client-ts's own `User` writes (its `UserManager`, Echo's React SDK), for a user like `user(...)`. */
const writtenByOidcClientTs = (accessToken: string, expiresAt: number) =>
  new User({
    access_token: accessToken,
    token_type: 'Bearer',
    profile: { sub: 'u1', iss: 'i', aud: 'a', exp: 0, iat: 0 },
    expires_at: expiresAt,
  }).toStorageString()

/** `storage` as this tab sees it while another tab removes `key` just after this tab reads the length for the `nth` time. */
function removedByAnotherTab(storage: Storage, key: string, nth: number): Storage {
  let lengthReads = 0
  return {
    getItem: (name) => storage.getItem(name),
    setItem: (name, value) => storage.setItem(name, value),
    removeItem: (name) => storage.removeItem(name),
    clear: () => storage.clear(),
    key: (index) => storage.key(index),
    get length() {
      const { length } = storage
      lengthReads += 1
      if (lengthReads === nth) storage.removeItem(key)
      return length
    },
  }
}

describe('stored users', () => {
  it('reads the user oidc-client-ts stored, and nothing from a value that cannot be read', () => {
    const storage = memoryStorage({ good: writtenByOidcClientTs('t1', 100), bad: '{not json' })
    expect(readStoredUser(storage, 'good')?.access_token).toBe('t1')
    expect(readStoredUser(storage, 'bad')).toBeNull()
    expect(readStoredUser(storage, 'missing')).toBeNull()
  })

  it("writes what oidc-client-ts's User reads back as the same user, field for field", () => {
    const stored: StoredUser = {
      access_token: 'a1',
      refresh_token: 'r1',
      token_type: 'Bearer',
      scope: 'llm:invoke offline_access',
      profile: { sub: 'u1', name: 'Ada' },
      expires_at: 1_900_000_000,
    }
    const read = User.fromStorageString(toStorageString(stored))
    expect({ ...read }).toMatchObject(stored)
    // oidc-client-ts writes a missing session_state as null.
    expect(JSON.parse(read.toStorageString())).toEqual({ ...JSON.parse(toStorageString(stored)), session_state: null })
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
    const storage = memoryStorage({
      'oidc.s1': JSON.stringify({ id: 's1', client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50' }),
      'oidc.s2': JSON.stringify({ id: 's2', client_id: 'other' }),
    })
    expect(isOwnSignInState(storage, 's1', '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50')).toBe(true)
    expect(isOwnSignInState(storage, 's2', '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50')).toBe(false)
    expect(isOwnSignInState(storage, 's3', '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50')).toBe(false)
  })
})

/** What a usable user is: a token, a profile subject, an expiry that reads as a number. */
function isUsable(user: StoredUser): boolean {
  return (
    typeof user.access_token === 'string' &&
    user.access_token !== '' &&
    typeof user.profile.sub === 'string' &&
    user.profile.sub !== '' &&
    Number.isFinite(expiresAtMs(user))
  )
}

describe('what storage and other tabs hand over is checked', () => {
  const stored = {
    access_token: 'a1',
    refresh_token: 'r1',
    token_type: 'Bearer',
    scope: 'llm:invoke',
    profile: { sub: 'u1' },
    expires_at: 1_900_000_000,
  }

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
    // A user with no refresh token (null, as oidc-client-ts writes it) is still a user, without one.
    const withoutRefresh = userFromStorageString(JSON.stringify({ ...stored, refresh_token: null }))
    expect(withoutRefresh?.access_token).toBe('a1')
    expect(withoutRefresh?.refresh_token).toBeUndefined()
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
        profile: fc.oneof(
          fc.record({ sub: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: [] }),
          fc.constant(null),
          fc.string(),
        ),
        expires_at: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
      },
      { requiredKeys: [] },
    )
    const text = fc.oneof(
      fc.string(),
      fc.json(),
      userLike.map((value) => JSON.stringify(value)),
    )
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

  it('keeps every optional field of the right type: token type, scope, expiry, session state, id token', () => {
    const complete = { ...stored, token_type: 'DPoP', session_state: 'ss1', id_token: 'id1' }
    expect(userFromStorageString(JSON.stringify(complete))).toStrictEqual(complete)
  })

  it('leaves out an optional field of the wrong type, and a token type that is not text reads as Bearer', () => {
    const odd = { ...stored, token_type: 7, scope: 42, expires_at: '1900000000', session_state: 1, id_token: true }
    expect(userFromStorageString(JSON.stringify(odd))).toStrictEqual({
      access_token: 'a1',
      refresh_token: 'r1',
      token_type: 'Bearer',
      profile: { sub: 'u1' },
    })
  })

  it('a stored user without a token type reads as Bearer', () => {
    const { token_type: _omitted, ...withoutType } = stored
    expect(userFromStorageString(JSON.stringify(withoutType))?.token_type).toBe('Bearer')
  })

  it('a sign-in state that is not JSON, or is JSON null, stays through the sweep', () => {
    const storage = memoryStorage({ 'oidc.broken': '{', 'oidc.null': 'null' })
    removeSignInStates(storage, '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', Date.now())
    expect(storage.getItem('oidc.broken')).toBe('{')
    expect(storage.getItem('oidc.null')).toBe('null')
  })

  it("removes only this app's sign-in states older than 15 minutes: a live sign-in's, another app's and unreadable ones stay", () => {
    const now = 1_800_000_000_000
    const storage = memoryStorage({
      'oidc.ours-stale': JSON.stringify({
        id: 'ours-stale',
        client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
        code_verifier: 'v1',
        created: now / 1000 - 15 * 60,
      }),
      'oidc.ours-live': JSON.stringify({
        id: 'ours-live',
        client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
        code_verifier: 'v2',
        created: now / 1000 - 15 * 60 + 1,
      }),
      'oidc.ours-undated': JSON.stringify({
        id: 'ours-undated',
        client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
        code_verifier: 'v3',
      }),
      'oidc.theirs': JSON.stringify({ id: 'theirs', client_id: 'other', created: now / 1000 - 60 }),
      'oidc.theirs-stale': JSON.stringify({ id: 'theirs-stale', client_id: 'other', created: now / 1000 - 15 * 60 }),
      'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50': JSON.stringify(stored),
      'oidc.unreadable': '{',
      unrelated: JSON.stringify({ client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', created: 1 }),
    })
    removeSignInStates(storage, '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', now)
    expect(Array.from({ length: storage.length }, (_, index) => storage.key(index)).sort()).toEqual([
      'oidc.ours-live',
      'oidc.ours-undated',
      'oidc.theirs',
      'oidc.theirs-stale',
      'oidc.unreadable',
      'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
      'unrelated',
    ])
  })

  it('never takes the stored user for a sign-in state, whatever its JSON holds', () => {
    const userKey = 'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50'
    const storage = memoryStorage({
      // A JSON that reads as this app's stale sign-in state, in every field the sweep looks at.
      [userKey]: JSON.stringify({ ...stored, client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', created: 1 }),
    })
    removeSignInStates(storage, '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', Date.now())
    expect(storage.getItem(userKey)).not.toBeNull()
  })

  it('skips a sign-in state another tab removes during the sweep, and still removes the others', () => {
    const storage = memoryStorage({
      'oidc.ours-1': JSON.stringify({ id: 'ours-1', client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', created: 1 }),
      'oidc.ours-2': JSON.stringify({ id: 'ours-2', client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', created: 1 }),
    })
    // The second look at the length still counts 'oidc.ours-2'; by the time its key is read, it is gone.
    removeSignInStates(
      removedByAnotherTab(storage, 'oidc.ours-2', 2),
      '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
      Date.now(),
    )
    expect(storage.length).toBe(0)
  })
})

describe("the refresh token's life", () => {
  const NOW = 1_700_000_000_000
  const signedIn: StoredUser = { access_token: 'a1', token_type: 'Bearer', profile: { sub: 'u1' } }

  it('is noted in the profile, in epoch milliseconds from now, when Echo gives one', () => {
    const withLife = withRefreshLife(signedIn, 2_592_000, NOW)
    expect(withLife.profile).toEqual({ sub: 'u1', echo_rtk_refresh_expires_at: NOW + 2_592_000_000 })
    expect(refreshExpiresAtMs(withLife)).toBe(NOW + 2_592_000_000)
    expect(signedIn.profile).toEqual({ sub: 'u1' })
  })

  it('is not noted when Echo gives none, or one that is no positive finite number of seconds', () => {
    for (const life of [undefined, null, '60', 0, -60, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(withRefreshLife(signedIn, life, NOW)).toBe(signedIn)
    }
    expect(refreshExpiresAtMs(signedIn)).toBeUndefined()
  })

  it('reads as unknown when the noted one is not a finite number', () => {
    for (const noted of ['1700000000000', null, Number.POSITIVE_INFINITY]) {
      const user = { ...signedIn, profile: { sub: 'u1', echo_rtk_refresh_expires_at: noted } }
      expect(refreshExpiresAtMs(user)).toBeUndefined()
    }
  })
})

describe('sign-in states started in a popup window', () => {
  const storage = memoryStorage({
    'oidc.popup': JSON.stringify({ id: 'popup', request_type: POPUP_REQUEST_TYPE }),
    'oidc.redirect': JSON.stringify({ id: 'redirect', request_type: 'si:r' }),
    'oidc.broken': '{',
  })

  it("are told apart by their state's request type", () => {
    expect(isPopupSignInState(storage, 'popup')).toBe(true)
    expect(isPopupSignInState(storage, 'redirect')).toBe(false)
  })

  it('a state that is not stored, or cannot be read, is no popup sign-in, and no throw', () => {
    expect(isPopupSignInState(storage, 'missing')).toBe(false)
    expect(isPopupSignInState(storage, 'broken')).toBe(false)
  })
})

describe('the stored user at start-up', () => {
  const config = { apiUrl: 'https://echo.test', appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50' }
  const ownKey = 'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50'
  const session = writtenByOidcClientTs('t1', 1_900_000_000)

  function startUp(storage: Storage) {
    const warnings: string[] = []
    const taken = takeStoredUser({ storage, logWarning: (message) => void warnings.push(message) }, config)
    return { taken, warnings }
  }

  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it("takes this app's stored user, and says nothing", () => {
    const { taken, warnings } = startUp(
      memoryStorage({ [ownKey]: session, 'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53': session }),
    )
    expect(taken?.access_token).toBe('t1')
    expect(warnings).toEqual([])
  })

  it('removes a stored value that is no usable user', () => {
    const storage = memoryStorage({ [ownKey]: '{not json' })
    expect(startUp(storage).taken).toBeNull()
    expect(storage.getItem(ownKey)).toBeNull()
  })

  it('in development, points out the sessions stored for other apps or Echos when nobody is signed in to this one', () => {
    const storage = memoryStorage({
      'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53': session,
      'oidc.some-state': JSON.stringify({ id: 'some-state', client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50' }),
      'oidc.user:https://staging.echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50': session,
      unrelated: 'x',
    })
    expect(startUp(storage).warnings).toEqual([
      "echo-rtk: nobody is signed in to app 2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50 at https://echo.test, but this storage holds a session for https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53, https://staging.echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50. If that is this app, its config's appId or apiUrl differs from the one it signed in with",
    ])
  })

  it('says nothing when no session is stored for anyone, sign-in states and other keys aside', () => {
    const storage = memoryStorage({
      'oidc.some-state': JSON.stringify({ id: 'some-state', client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50' }),
      unrelated: 'x',
    })
    expect(startUp(storage).warnings).toEqual([])
  })

  it('in production, says nothing about the sessions of other apps', () => {
    vi.stubEnv('NODE_ENV', 'production')
    expect(
      startUp(memoryStorage({ 'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53': session })).warnings,
    ).toEqual([])
  })

  it('skips a session another tab removes while it looks, and points out the rest', () => {
    const storage = memoryStorage({
      'oidc.user:https://echo.test:app-a': session,
      'oidc.user:https://echo.test:app-b': session,
    })
    const { warnings } = startUp(removedByAnotherTab(storage, 'oidc.user:https://echo.test:app-b', 2))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('holds a session for https://echo.test:app-a.')
  })
})

describe('the stored user at start-up', () => {
  const config = { apiUrl: 'https://echo.test', appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50' }
  const own = 'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50'
  const usable = JSON.stringify({
    access_token: 'a1',
    refresh_token: 'r1',
    profile: { sub: 'u1' },
    expires_at: 1_900_000_000,
  })
  const start = (entries: Record<string, string>) => {
    const storage = memoryStorage(entries)
    const warnings: string[] = []
    const user = takeStoredUser({ storage, logWarning: (message) => warnings.push(message) }, config)
    return { storage, warnings, user }
  }

  it("takes this app's stored user, and says nothing", () => {
    const { user, warnings, storage } = start({ [own]: usable, 'oidc.user:https://echo.test:other': usable })
    expect(user?.access_token).toBe('a1')
    expect(warnings).toEqual([])
    expect(storage.getItem(own)).toBe(usable)
  })

  it('removes a stored value that is no usable user (a sign-in that stopped before its profile)', () => {
    const { user, storage } = start({ [own]: JSON.stringify({ access_token: 'a1', profile: {} }) })
    expect(user).toBeNull()
    expect(storage.getItem(own)).toBeNull()
  })

  it('signed out here but signed in to other apps: names them, and only user keys', () => {
    const { warnings } = start({
      'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f52': usable,
      'oidc.user:https://elsewhere.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50': usable,
      'oidc.some-state': '{}',
      'oidc-user:x': '{}',
    })
    expect(warnings).toEqual([
      "echo-rtk: nobody is signed in to app 2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50 at https://echo.test, but this storage holds a session for https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f52, https://elsewhere.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50. If that is this app, its config's appId or apiUrl differs from the one it signed in with",
    ])
  })

  it('says nothing when no other session is stored, nor in a production build', () => {
    expect(start({ 'oidc.some-state': '{}' }).warnings).toEqual([])
    vi.stubEnv('NODE_ENV', 'production')
    try {
      expect(start({ 'oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f52': usable }).warnings).toEqual([])
    } finally {
      vi.unstubAllEnvs()
    }
  })
})
