// @vitest-environment jsdom
import { inspect } from 'node:util'

import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  echoApi,
  getToken,
  signIn,
  signOut,
  startEchoSession,
  stopEchoSession,
  type EchoConfig,
  type EchoStore,
} from 'echo-rtk'
import { EchoClient } from 'echo-rtk/client'
import { CONFIG, sessionOf, echoStoresPerTest } from '../support/echoStores'
import { server } from '../support/server'
import {
  APP_ID,
  APP_URL,
  backFromEcho,
  codeExchanges,
  ECHO,
  refreshGrants,
  sentTo,
  serveEcho,
} from '../support/testEcho'

const { newStore, navigations, signInThroughEcho } = echoStoresPerTest()
const auth = (store: EchoStore) => store.getState().echo.auth
// msw before 2.4 keeps its own cookie jar in localStorage (MSW_COOKIE_STORE): not echo-rtk's.
const storedKeys = () => Object.keys(window.localStorage).filter((key) => key !== 'MSW_COOKIE_STORE')

afterEach(() => {
  vi.useRealTimers()
})

describe('sign-in', () => {
  it('leaves for Echo with PKCE (S256), the app id, the redirect URI and the scope, and is loading until the page leaves', async () => {
    const store = newStore()
    await store.dispatch(signIn())
    const authorize = new URL(navigations[0]!)
    expect(authorize.origin + authorize.pathname).toBe('https://echo.test/api/oauth/authorize')
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: APP_ID,
      redirect_uri: APP_URL,
      response_type: 'code',
      scope: 'llm:invoke offline_access',
      code_challenge_method: 'S256',
    })
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    expect(auth(store).status).toBe('loading')
  })

  it('completes the code exchange once, reads the profile from userinfo and signs in', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    expect(auth(store)).toMatchObject({
      status: 'authenticated',
      user: { id: 'user-1', email: 'ada@example.com', name: 'Ada Lovelace', picture: null },
      accessToken: 'test-access-1',
      error: null,
    })
    expect(codeExchanges(echo)).toHaveLength(1)
    expect(sentTo(echo, '/api/oauth/userinfo')).toHaveLength(1)
  })

  it('takes the preferred username as the name when there is none', async () => {
    serveEcho({ userinfo: { sub: 'user-2', email: 'grace@example.com', preferred_username: 'grace' } })
    const store = await signInThroughEcho()
    expect(auth(store).user).toEqual({ id: 'user-2', email: 'grace@example.com', name: 'grace', picture: null })
  })

  it('removes code and state from the address bar, keeping every other parameter and the hash', async () => {
    serveEcho()
    await newStore().dispatch(signIn())
    const back = new URL(await backFromEcho(navigations[0]!))
    window.history.replaceState(
      null,
      '',
      `/?tab=usage&code=${back.searchParams.get('code')}&lang=en&state=${back.searchParams.get('state')}#top`,
    )
    const store = newStore()
    expect(window.location.href).toBe(`${APP_URL}/?tab=usage&lang=en#top`)
    await sessionOf(store).signInCallback
    expect(auth(store).status).toBe('authenticated')
  })

  it('never sends a second exchange of the same code: started, stopped and started again (StrictMode), or by a second store', async () => {
    const echo = serveEcho()
    await newStore().dispatch(signIn())
    await backFromEcho(navigations[0]!)
    const store = newStore()
    const session = sessionOf(store)
    session.stop()
    session.start()
    const second = newStore()
    await session.signInCallback
    await sessionOf(second).signInCallback
    expect(codeExchanges(echo)).toHaveLength(1)
    expect(auth(store).status).toBe('authenticated')
  })

  it('turns an error from Echo into a clear auth error and removes it from the address bar', async () => {
    serveEcho()
    await newStore().dispatch(signIn())
    const state = new URL(navigations[0]!).searchParams.get('state')!
    window.history.replaceState(
      null,
      '',
      `/?error=access_denied&error_description=The+user+declined&state=${state}&keep=1`,
    )
    const store = newStore()
    expect(auth(store)).toMatchObject({
      status: 'unauthenticated',
      error: { code: 'UNKNOWN_ERROR', message: 'Sign-in was refused: The user declined (access_denied)' },
    })
    expect(window.location.search).toBe('?keep=1')
    expect(storedKeys()).toEqual([])
  })

  it('reports a refused code exchange as an auth error and keeps no user', async () => {
    serveEcho()
    await newStore().dispatch(signIn())
    const back = new URL(await backFromEcho(navigations[0]!))
    back.searchParams.set('code', 'forged')
    window.history.replaceState(null, '', back.href)
    const store = newStore()
    await sessionOf(store).signInCallback
    expect(auth(store)).toMatchObject({
      status: 'unauthenticated',
      error: { message: 'Invalid authorization code while completing sign-in' },
    })
    expect(storedKeys().filter((key) => key.startsWith('oidc.user:'))).toEqual([])
  })

  it('a profile that cannot be read fails the sign-in with its own error, named once', async () => {
    serveEcho({ failures: { userinfo: { status: 401, body: { message: 'Unauthorized' } } } })
    await newStore().dispatch(signIn())
    await backFromEcho(navigations[0]!)
    const store = newStore()
    await sessionOf(store).signInCallback
    expect(auth(store)).toMatchObject({
      status: 'unauthenticated',
      error: {
        code: 'HTTP_401',
        message: '{"message":"Unauthorized"} while loading the user profile',
        endpoint: '/api/oauth/userinfo',
      },
    })
  })

  it('leaves alone a code in the address bar that some other sign-in started', () => {
    serveEcho()
    window.history.replaceState(null, '', '/?code=theirs&state=not-ours')
    const store = newStore()
    expect(auth(store).status).toBe('unauthenticated')
    expect(window.location.search).toBe('?code=theirs&state=not-ours')
  })
})

describe('a config with keys echo-rtk does not read', () => {
  it('is pointed out once, in development, naming the key and the one meant', () => {
    const logWarning = vi.fn()
    const store = newStore({ logWarning }, { ...CONFIG, redirectUrl: 'http://localhost:3000' } as EchoConfig)
    store.dispatch(stopEchoSession())
    store.dispatch(startEchoSession({ ...CONFIG, redirectUrl: 'http://localhost:3000' } as EchoConfig))
    expect(logWarning.mock.calls).toEqual([
      ['echo-rtk: EchoConfig.redirectUrl is not a setting of echo-rtk and is ignored: did you mean redirectUri?'],
    ])
  })
})

describe('start-up', () => {
  it('shows a valid stored session as authenticated at once, with no request', async () => {
    const echo = serveEcho()
    await signInThroughEcho()
    const before = { refreshes: refreshGrants(echo).length, userinfo: sentTo(echo, '/api/oauth/userinfo').length }
    const store = newStore()
    expect(auth(store).status).toBe('authenticated')
    expect(auth(store).user?.name).toBe('Ada Lovelace')
    expect(refreshGrants(echo)).toHaveLength(before.refreshes)
    expect(sentTo(echo, '/api/oauth/userinfo')).toHaveLength(before.userinfo)
  })

  it('is unauthenticated at once when nothing is stored', () => {
    expect(auth(newStore()).status).toBe('unauthenticated')
  })

  it('gives an expired stored session one silent renew', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const echo = serveEcho({ expiresInSeconds: 15 })
    await signInThroughEcho()
    vi.setSystemTime(Date.now() + 20_000)
    const store = newStore()
    expect(auth(store).status).toBe('loading')
    await vi.waitFor(() => expect(auth(store).status).toBe('authenticated'))
    expect(refreshGrants(echo)).toHaveLength(1)
    expect(auth(store).accessToken).toBe('test-access-2')
  })
})

describe('refresh', () => {
  it('renews a 15-second token once per lifetime, never in a loop', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    vi.setSystemTime(Math.ceil(Date.now() / 1000) * 1000)
    const echo = serveEcho({ expiresInSeconds: 15 })
    const store = await signInThroughEcho()
    await vi.advanceTimersByTimeAsync(59_000)
    // Each token is renewed once, a third of its life before it ends: about every 10 s (a little
    // less when oidc-client-ts's whole-second expiry cuts a token short), never sooner, never a loop.
    const refreshes = refreshGrants(echo)
    expect(refreshes.filter(({ status }) => status !== 200)).toEqual([])
    expect(refreshes.length).toBeGreaterThanOrEqual(5)
    expect(refreshes.length).toBeLessThanOrEqual(6)
    const refreshedAt = refreshes.map(({ at }) => at)
    const gaps = refreshedAt.slice(1).map((at, index) => at - refreshedAt[index]!)
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(9_000)
      expect(gap).toBeLessThanOrEqual(10_000)
    }
    expect(auth(store)).toMatchObject({
      status: 'authenticated',
      accessToken: `test-access-${refreshes.length + 1}`,
      isRefreshing: false,
    })
  })

  it('getToken() on an expired token and a 401 from the API share one refresh', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const echo = serveEcho({ expiresInSeconds: 15 })
    const store = await signInThroughEcho()
    vi.setSystemTime(Date.now() + 16_000)
    const [token, balance] = await Promise.all([
      store.dispatch(getToken()),
      store.dispatch(echoApi.endpoints.getBalance.initiate(undefined, { forceRefetch: true, subscribe: false })),
    ])
    expect(token).toBe('test-access-2')
    expect(balance.data?.balance).toBe(12.5)
    expect(refreshGrants(echo)).toHaveLength(1)
  })

  it('on failure logs it, removes the stored user and stale state, and signs out', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const echo = serveEcho({ expiresInSeconds: 15 })
    const store = await signInThroughEcho()
    window.localStorage.setItem(
      'oidc.stale-state',
      JSON.stringify({ id: 'stale-state', client_id: APP_ID, created: 1, request_type: 'si:r' }),
    )
    echo.set({ refuseRefresh: true })
    vi.setSystemTime(Date.now() + 16_000)
    const client = new EchoClient({ tokenProvider: sessionOf(store).coordinator, apiUrl: ECHO })
    await expect(client.balance.get()).rejects.toMatchObject({
      code: 'HTTP_401',
      statusCode: 401,
      message: '{"message":"Unauthorized"} (token refresh failed: Invalid refresh token) while fetching balance',
    })
    await vi.waitFor(() => expect(auth(store).status).toBe('unauthenticated'))
    expect(logged).toHaveBeenCalledWith(
      'Token refresh failed:',
      expect.objectContaining({ message: 'Invalid refresh token' }),
    )
    // What is logged names the failure, never the refresh token it was sent with.
    expect(inspect(logged.mock.calls, { depth: 8 })).not.toMatch(/refresh-\d/)
    expect(storedKeys()).toEqual([])
    expect(auth(store)).toMatchObject({ user: null, accessToken: null })
  })
})

describe('tabs', () => {
  it('a sign-out in one tab signs the other out (storage event)', async () => {
    serveEcho()
    const first = await signInThroughEcho()
    const second = newStore()
    expect(auth(second).status).toBe('authenticated')
    const key = storedKeys().find((k) => k.startsWith('oidc.user:'))!
    const oldValue = window.localStorage.getItem(key)
    await first.dispatch(signOut())
    // A browser fires this in every other tab that shares the storage.
    window.dispatchEvent(
      new StorageEvent('storage', { key, oldValue, newValue: null, storageArea: window.localStorage }),
    )
    expect(auth(second)).toMatchObject({ status: 'unauthenticated', user: null })
  })

  it('a sign-in in one tab reaches the other', async () => {
    serveEcho()
    const waiting = newStore()
    expect(auth(waiting).status).toBe('unauthenticated')
    await signInThroughEcho()
    const key = storedKeys().find((k) => k.startsWith('oidc.user:'))!
    window.dispatchEvent(
      new StorageEvent('storage', {
        key,
        oldValue: null,
        newValue: window.localStorage.getItem(key),
        storageArea: window.localStorage,
      }),
    )
    expect(auth(waiting)).toMatchObject({ status: 'authenticated', user: { id: 'user-1' } })
  })

  it('a tab mid-sign-in, tokens stored before the profile, is not taken for a signed-in user elsewhere', async () => {
    serveEcho()
    const waiting = newStore()
    await signInThroughEcho()
    const key = storedKeys().find((k) => k.startsWith('oidc.user:'))!
    const complete = window.localStorage.getItem(key)!
    const withoutProfile = JSON.stringify({ ...JSON.parse(complete), profile: {} })
    window.localStorage.setItem(key, withoutProfile)
    window.dispatchEvent(
      new StorageEvent('storage', { key, oldValue: null, newValue: withoutProfile, storageArea: window.localStorage }),
    )
    expect(auth(waiting).status).toBe('unauthenticated')
    window.localStorage.setItem(key, complete)
    window.dispatchEvent(
      new StorageEvent('storage', {
        key,
        oldValue: withoutProfile,
        newValue: complete,
        storageArea: window.localStorage,
      }),
    )
    expect(auth(waiting)).toMatchObject({ status: 'authenticated', user: { id: 'user-1', name: 'Ada Lovelace' } })
  })

  it('two tabs refreshing at once under the cross-tab lock send one refresh, and neither is signed out', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { fakeLocks } = await import('../support/echoStores')
    const locks = fakeLocks()
    const echo = serveEcho({ expiresInSeconds: 15 })
    const first = await signInThroughEcho({ locks })
    const second = newStore({ locks })
    vi.setSystemTime(Date.now() + 16_000)
    const tokens = await Promise.all([first.dispatch(getToken()), second.dispatch(getToken())])
    expect(refreshGrants(echo).map(({ status }) => status)).toEqual([200])
    expect(tokens).toEqual(['test-access-2', 'test-access-2'])
    expect([auth(first).status, auth(second).status]).toEqual(['authenticated', 'authenticated'])
  })
})

describe('long-lived tokens', () => {
  it('a 30-day token renews exactly once per token: the timer waits in capped steps, never fires in a loop', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const day = 86_400_000
    const echo = serveEcho({ expiresInSeconds: 30 * 86_400 })
    const store = await signInThroughEcho()
    // A timer can hold at most 2,147,483,647 ms (24.8 days); a longer delay would fire at once.
    await vi.advanceTimersByTimeAsync(29 * day)
    expect(refreshGrants(echo)).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1 * day)
    expect(refreshGrants(echo)).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(30 * day)
    expect(refreshGrants(echo).map(({ status }) => status)).toEqual([200, 200])
    expect(auth(store)).toMatchObject({ status: 'authenticated', accessToken: 'test-access-3' })
  })
})

describe('what other tabs and storage hand over', () => {
  const channelName = `echo-rtk:refresh:${ECHO}:${APP_ID}`
  const openChannel = (name: string) => new BroadcastChannel(name)
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50))

  it('garbage on the hand-over channel is ignored in every tab: no throw, no user adopted, the next refresh still works', async () => {
    const echo = serveEcho({ expiresInSeconds: 15 })
    const store = await signInThroughEcho({ openChannel })
    const stored = JSON.parse(window.localStorage.getItem(`oidc.user:${ECHO}:${APP_ID}`)!) as Record<string, unknown>
    const otherTab = new BroadcastChannel(channelName)
    for (const message of [
      '{not json',
      null,
      42,
      { type: 'tokens' },
      { type: 'tokens', user: '{not json' },
      { type: 'tokens', user: 'null' },
      // A newer user without a profile: adopting it would sign every tab out at the next refresh.
      {
        type: 'tokens',
        user: JSON.stringify({ ...stored, access_token: 'forged', profile: {}, expires_at: 4_102_444_800 }),
      },
      { type: 'tokens', user: JSON.stringify({ ...stored, access_token: 'odd-expiry', expires_at: 'soon' }) },
    ]) {
      otherTab.postMessage(message)
    }
    await settle()
    otherTab.close()
    expect(auth(store)).toMatchObject({ status: 'authenticated', accessToken: 'test-access-1' })
    await expect(store.dispatch(getToken())).resolves.toBe('test-access-1')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 16_000)
    await expect(store.dispatch(getToken())).resolves.toBe('test-access-2')
    expect(refreshGrants(echo)).toHaveLength(1)
    expect(auth(store)).toMatchObject({ status: 'authenticated', accessToken: 'test-access-2' })
    expect(Number.isFinite(auth(store).expiresAt)).toBe(true)
  })

  it('a stored user whose expiry cannot be read counts as expired: one renew, never NaN in the store', async () => {
    const echo = serveEcho()
    await signInThroughEcho()
    const key = `oidc.user:${ECHO}:${APP_ID}`
    window.localStorage.setItem(
      key,
      JSON.stringify({ ...JSON.parse(window.localStorage.getItem(key)!), expires_at: 'later' }),
    )
    const store = newStore()
    expect(auth(store).status).toBe('loading')
    await vi.waitFor(() => expect(auth(store).status).toBe('authenticated'))
    expect(refreshGrants(echo)).toHaveLength(1)
    expect(Number.isFinite(auth(store).expiresAt)).toBe(true)
  })

  it("a refresh that fails removes the sign-in this app left half-done long ago, and never a live one's or another app's state", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const echo = serveEcho({ expiresInSeconds: 15 })
    const store = await signInThroughEcho()
    // A sign-in started and abandoned (the user came back without finishing it), and another app's.
    await newStore().dispatch(signIn())
    window.localStorage.setItem(
      'oidc.theirs',
      JSON.stringify({
        id: 'theirs',
        client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53',
        created: Math.floor(Date.now() / 1000),
      }),
    )
    const abandoned = storedKeys().filter(
      (key) => key.startsWith('oidc.') && !key.startsWith('oidc.user:') && key !== 'oidc.theirs',
    )
    expect(abandoned).toHaveLength(1)
    echo.set({ refuseRefresh: true })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 16 * 60_000)
    // A sign-in another provider of this app has just started: its state and PKCE verifier must survive.
    window.localStorage.setItem(
      'oidc.live',
      JSON.stringify({ id: 'live', client_id: APP_ID, created: Math.floor(Date.now() / 1000) }),
    )
    await store.dispatch(getToken())
    await vi.waitFor(() => expect(auth(store).status).toBe('unauthenticated'))
    await vi.waitFor(() => expect(storedKeys().sort()).toEqual(['oidc.live', 'oidc.theirs']))
  })

  it("a switch to another user in another tab never shows the new user with the old user's balance", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    serveEcho()
    const store = await signInThroughEcho()
    expect(store.getState().echo.balance.balance?.balance).toBe(12.5)
    const key = `oidc.user:${ECHO}:${APP_ID}`
    const seen: { user: string | undefined; balance: number | undefined }[] = []
    store.subscribe(() => {
      const { auth: now, balance } = store.getState().echo
      seen.push({ user: now.user?.id, balance: balance.balance?.balance })
    })
    const theirs = JSON.parse(window.localStorage.getItem(key)!) as { profile: Record<string, unknown> }
    const switched = JSON.stringify({
      ...theirs,
      access_token: 'token-of-user-2',
      profile: { ...theirs.profile, sub: 'user-2', name: 'Grace Hopper' },
      expires_at: Math.floor(Date.now() / 1000) + 900,
    })
    window.localStorage.setItem(key, switched)
    window.dispatchEvent(
      new StorageEvent('storage', { key, oldValue: null, newValue: switched, storageArea: window.localStorage }),
    )
    expect(auth(store).user?.id).toBe('user-2')
    expect(seen.filter((state) => state.user === 'user-2' && state.balance === 12.5)).toEqual([])
    // The new user's balance is then asked for: let it settle.
    await vi.waitFor(() => expect(store.getState().echo.balance.status).not.toBe('loading'))
  })
})

describe('a session that ends on its own', () => {
  const openChannel = (name: string) => new BroadcastChannel(name)

  it('says so, here and in the other tabs, until the next sign-in starts; status is unauthenticated', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const echo = serveEcho({ expiresInSeconds: 15 })
    const store = await signInThroughEcho({ openChannel })
    const otherTab = newStore({ openChannel })
    expect(auth(otherTab).status).toBe('authenticated')
    echo.set({ refuseRefresh: true })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 16_000)
    await expect(store.dispatch(getToken())).resolves.toBeNull()
    const ended = {
      status: 'unauthenticated',
      user: null,
      error: { reason: 'session-ended', message: 'Your session has ended. Sign in again.' },
    }
    await vi.waitFor(() => expect(auth(store)).toMatchObject(ended))
    await vi.waitFor(() => expect(auth(otherTab)).toMatchObject(ended))
    await store.dispatch(signIn())
    expect(auth(store)).toMatchObject({ status: 'loading', error: null })
  })

  it("a sign-out of the user's own is not an ended session: no message", async () => {
    serveEcho()
    const store = await signInThroughEcho()
    await store.dispatch(signOut())
    expect(auth(store)).toMatchObject({ status: 'unauthenticated', error: null })
  })

  it('a stored session whose renew fails at start-up has ended too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const echo = serveEcho({ expiresInSeconds: 15 })
    await signInThroughEcho()
    echo.set({ refuseRefresh: true })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 20_000)
    const store = newStore()
    await vi.waitFor(() =>
      expect(auth(store)).toMatchObject({
        status: 'unauthenticated',
        error: { reason: 'session-ended', message: 'Your session has ended. Sign in again.' },
      }),
    )
  })
})

describe('a refresh that fails while another tab renewed', () => {
  it('takes the tokens the other tab stored meanwhile instead of ending the session', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    vi.useFakeTimers({ toFake: ['Date'] })
    serveEcho({ expiresInSeconds: 15 })
    const store = await signInThroughEcho()
    const key = `oidc.user:${ECHO}:${APP_ID}`
    const mine = JSON.parse(window.localStorage.getItem(key)!) as Record<string, unknown>
    // The other tab's refresh lands while this tab's is refused (it waited too long for its turn, say).
    server.use(
      http.post(`${ECHO}/api/oauth/token`, () => {
        window.localStorage.setItem(
          key,
          JSON.stringify({
            ...mine,
            access_token: 'access-from-the-other-tab',
            expires_at: Math.floor(Date.now() / 1000) + 900,
          }),
        )
        return HttpResponse.json({ error: 'invalid_request', error_description: 'Timed out' }, { status: 400 })
      }),
    )
    vi.setSystemTime(Date.now() + 16_000)
    await store.dispatch(getToken())
    await vi.waitFor(() =>
      expect(auth(store)).toMatchObject({
        status: 'authenticated',
        accessToken: 'access-from-the-other-tab',
        error: null,
      }),
    )
  })
})

/**
 * A signed-in tab whose refresh (its token expired) has reached Echo and is held there until
 * `answer()`; `handedOver` collects what the tab posts to the others on the session's channel.
 */
async function refreshHeldAtEcho() {
  vi.useFakeTimers({ toFake: ['Date'] })
  const echo = serveEcho({ expiresInSeconds: 15 })
  const store = await signInThroughEcho({ openChannel: (name: string) => new BroadcastChannel(name) })
  const otherTab = new BroadcastChannel(`echo-rtk:refresh:${ECHO}:${APP_ID}`)
  const handedOver: unknown[] = []
  otherTab.onmessage = (event) => handedOver.push(event.data)
  const tokenEndpoint = echo.hold('token')
  vi.setSystemTime(Date.now() + 16_000)
  const refreshing = store.dispatch(getToken())
  await tokenEndpoint.reached
  /** Lets Echo answer, and waits for what the tab does with it to reach the other tab. */
  const answerAndSettle = async () => {
    tokenEndpoint.release()
    const token = await refreshing
    await new Promise((resolve) => setTimeout(resolve, 50))
    otherTab.close()
    return token
  }
  return { echo, store, handedOver, answerAndSettle }
}

describe('a sign-out while a refresh is on its way', () => {
  it('stores nothing and hands nothing over when the refresh comes back: the other tabs stay signed out', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { echo, store, handedOver, answerAndSettle } = await refreshHeldAtEcho()
    await store.dispatch(signOut())
    await expect(answerAndSettle()).resolves.toBeNull()
    expect(refreshGrants(echo)).toHaveLength(1)
    expect(handedOver).toEqual([])
    expect(storedKeys()).toEqual([])
    expect(auth(store)).toMatchObject({ status: 'unauthenticated', user: null, error: null })
    // The user chose to sign out: nothing failed, so nothing is logged.
    expect(logged).not.toHaveBeenCalled()
  })
})

describe('another user signing in while a refresh is on its way', () => {
  it("keeps the new user: the old user's refreshed tokens are neither stored nor handed over, and nobody is signed out", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { store, handedOver, answerAndSettle } = await refreshHeldAtEcho()
    // Another tab signs out and Grace signs in there.
    const key = `oidc.user:${ECHO}:${APP_ID}`
    const ada = JSON.parse(window.localStorage.getItem(key)!) as { profile: Record<string, unknown> }
    const grace = JSON.stringify({
      ...ada,
      access_token: 'grace-token',
      refresh_token: 'grace-refresh',
      profile: { ...ada.profile, sub: 'user-2', name: 'Grace Hopper' },
      expires_at: Math.floor(Date.now() / 1000) + 900,
    })
    window.localStorage.setItem(key, grace)
    window.dispatchEvent(
      new StorageEvent('storage', { key, oldValue: null, newValue: grace, storageArea: window.localStorage }),
    )
    expect(auth(store).user?.id).toBe('user-2')
    await answerAndSettle()
    expect(handedOver).toEqual([])
    expect(window.localStorage.getItem(key)).toBe(grace)
    expect(auth(store)).toMatchObject({
      status: 'authenticated',
      user: { id: 'user-2' },
      accessToken: 'grace-token',
      error: null,
    })
  })
})
