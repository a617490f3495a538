import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { EchoSession } from '../../src/auth/EchoSession'
import type { EchoEnvironment, PageSignal, WakeCause } from '../../src/auth/environment'
import type { SessionReporter } from '../../src/auth/sessionState'
import { storedUserKey, toStorageString, type StoredUser } from '../../src/auth/storedUser'
import { resolveConfig, type EchoConfig } from '../../src/config'
import { lastingStorage } from '../support/memoryStorage'
import { APP_ID, APP_URL, ECHO } from '../support/testEcho'
import { TabChannel } from '../support/tabChannel'

// The session on its own, with every report it sends its store in order: each transition a user can
// meet, and what the store is told (or not told) about it. The store-level tests are in EchoSession.test.ts.

const NOW = Date.UTC(2026, 10, 28, 12)
const CONFIG: EchoConfig = { appId: APP_ID, apiUrl: ECHO, redirectUri: APP_URL }
const USER_KEY = storedUserKey(resolveConfig(CONFIG, { origin: APP_URL }))
const TOKEN_URL = `${ECHO}/api/oauth/token`

/** A user of `sub` whose access token `token` expires `expiresInS` seconds from now. */
function userOf(sub: string, token: string, expiresInS: number): StoredUser {
  return {
    access_token: token,
    refresh_token: `refresh-for-${token}`,
    token_type: 'Bearer',
    scope: 'llm:invoke offline_access',
    profile: { sub, name: sub },
    expires_at: Math.floor(Date.now() / 1000) + expiresInS,
  }
}

type Report = [keyof SessionReporter, ...unknown[]]
type TokenAnswer = (form: URLSearchParams, signal: AbortSignal) => Response | Promise<Response>

/** Echo's token endpoint answering `expires_in` 900 with the next access token, and rotating the refresh token. */
const freshTokens: TokenAnswer = (form) =>
  Response.json({
    access_token: `renewed-${form.get('refresh_token')}`,
    refresh_token: `next-${form.get('refresh_token')}`,
    expires_in: 900,
    token_type: 'Bearer',
  })

/** A token endpoint that never answers: the request ends only when it is given up. */
const neverAnswering: TokenAnswer = (_form, signal) =>
  new Promise((_resolve, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
  )

/** The endpoint answering with `answer` after `ms` (or given up before). */
const answeringAfter =
  (ms: number, answer: TokenAnswer = freshTokens): TokenAnswer =>
  (form, signal) =>
    new Promise((resolve, reject) => {
      const handle = setTimeout(() => resolve(answer(form, signal)), ms)
      signal.addEventListener('abort', () => (clearTimeout(handle), reject(signal.reason as Error)), { once: true })
    })

const sessions: EchoSession[] = []

/** One tab's session over a fake browser: its reports, the token requests it sends, its listeners. */
function tab({
  stored,
  href = `${APP_URL}/`,
  channel = false,
  config = CONFIG,
  token = freshTokens,
  api = () => Response.json({ balance: 1 }),
}: {
  stored?: StoredUser
  href?: string
  channel?: boolean
  config?: EchoConfig
  token?: TokenAnswer
  /** Echo's API (`/api/v1/…`) answering a request with this token. */
  api?: (url: string, token: string | null) => Response
} = {}) {
  const storage = lastingStorage()
  if (stored !== undefined) storage.setItem(USER_KEY, toStorageString(stored))
  const reports: Report[] = []
  const record =
    (name: keyof SessionReporter) =>
    (...args: unknown[]) =>
      void reports.push([name, ...args])
  const reporter: SessionReporter = {
    signInStarted: record('signInStarted'),
    signedIn: record('signedIn'),
    signInFailed: record('signInFailed'),
    tokenRefreshStarted: record('tokenRefreshStarted'),
    tokenRefreshed: record('tokenRefreshed'),
    tokenRefreshInterrupted: record('tokenRefreshInterrupted'),
    signedOut: record('signedOut'),
  }
  const tokenRequests: URLSearchParams[] = []
  const storageListeners = new Set<(event: StorageEvent) => void>()
  const wakeListeners = new Set<(signal: PageSignal) => void>()
  const channels: TabChannel[] = []
  const warnings: string[] = []
  const errors: unknown[] = []
  const env: EchoEnvironment = {
    location: { href },
    history: { state: null, replaceState: () => undefined },
    storage,
    navigate: () => undefined,
    fetch: async (input, init) => {
      const url = input instanceof Request ? input.url : input.toString()
      if (url.startsWith(`${ECHO}/api/v1/`)) {
        const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
        return api(url, headers.get('Authorization')?.replace('Bearer ', '') ?? null)
      }
      if (url !== TOKEN_URL) throw new Error(`unexpected request to ${url}`)
      const form = init?.body as URLSearchParams
      tokenRequests.push(form)
      return token(form, init?.signal ?? new AbortController().signal)
    },
    locks: undefined,
    openChannel: channel ? TabChannel.opener(channels) : undefined,
    onStorage: (listener) => {
      storageListeners.add(listener)
      return () => storageListeners.delete(listener)
    },
    onPageSignal: (listener) => {
      wakeListeners.add(listener)
      return () => wakeListeners.delete(listener)
    },
    now: () => Date.now(),
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    logError: (_message, error) => void errors.push(error),
    logWarning: (message) => void warnings.push(message),
    closeWindow: () => undefined,
    openWindow: () => null,
    windowFrame: () => ({ x: 0, y: 0, width: 1280, height: 800 }),
    onMessage: () => () => undefined,
    postToOpener: () => undefined,
  }
  const session = new EchoSession(resolveConfig(config, { origin: APP_URL }), reporter, env)
  sessions.push(session)
  return {
    session,
    env,
    storage,
    reports,
    /** The report names, in order. */
    told: () => reports.map(([name]) => name),
    tokenRequests,
    storageListeners,
    wakeListeners,
    warnings,
    errors,
    /** The channel this tab opened (the newest). */
    channel: () => channels.at(-1)!,
    /** Another tab stored `user` (or removed it): the storage event this tab gets. */
    storedElsewhere(user: StoredUser | null) {
      if (user === null) storage.removeItem(USER_KEY)
      else storage.setItem(USER_KEY, toStorageString(user))
      for (const listener of [...storageListeners]) listener({ key: USER_KEY } as StorageEvent)
    },
    wake(cause: WakeCause = 'online') {
      for (const listener of [...wakeListeners]) listener(cause)
    },
  }
}

/** A sign-in this app started, as oidc-client-ts keeps its state: `oidc.<state>`. */
function storeSignInState(storage: Storage, state: string, requestType = 'si:r') {
  storage.setItem(
    `oidc.${state}`,
    JSON.stringify({ id: state, client_id: APP_ID, created: NOW / 1000, request_type: requestType }),
  )
}

const rejectionOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('resolved, expected a rejection')
    },
    (error: unknown) => error as Record<string, unknown>,
  )

beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
})

afterEach(() => {
  for (const session of sessions.splice(0)) session.stop()
  vi.useRealTimers()
})

describe('a session that is not running does nothing', () => {
  it('never started: its fetch, sign-in and sign-out refuse, saying what was asked and why', async () => {
    const { session, reports } = tab()
    const stopped = (action: string) => ({
      code: 'UNKNOWN_ERROR',
      reason: 'session-stopped',
      action,
      message:
        'The Echo session of this store is stopped (its <EchoProvider> unmounted, or stopEchoSession was ' +
        `dispatched) while ${action}`,
    })
    expect(await rejectionOf(session.fetch(`${ECHO}/api/v1/balance`))).toMatchObject(stopped('sending a request'))
    expect(await rejectionOf(session.signIn())).toMatchObject(stopped('starting sign-in'))
    expect(await rejectionOf(session.signOut())).toMatchObject(stopped('signing out'))
    expect(reports).toEqual([])
  })

  it('stopped: a refresh asked of it sends no token request and says why', async () => {
    const { session, tokenRequests } = tab({ stored: userOf('ada', 'access-1', 900) })
    session.start()
    session.stop()
    expect(await rejectionOf(session.coordinator.refreshToken())).toMatchObject({
      reason: 'session-stopped',
      action: 'refreshing the token',
    })
    expect(tokenRequests).toEqual([])
  })

  it('stopped with an expired token: getToken() is null, with no request and no throw', async () => {
    const { session, tokenRequests } = tab({ stored: userOf('ada', 'access-1', 30) })
    session.start()
    session.stop()
    vi.setSystemTime(NOW + 60_000)
    await expect(session.getToken()).resolves.toBeNull()
    expect(tokenRequests).toEqual([])
  })

  it('signed out, stopped and started again (StrictMode): no timer is armed', () => {
    const { session, told } = tab()
    session.start()
    session.stop()
    session.start()
    expect(told()).toEqual(['signedOut'])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('started twice: one listener each for the other tabs and for waking, and none once stopped', () => {
    const { session, storageListeners, wakeListeners } = tab({ stored: userOf('ada', 'access-1', 900) })
    session.start()
    session.start()
    expect([storageListeners.size, wakeListeners.size]).toEqual([1, 1])
    session.stop()
    expect([storageListeners.size, wakeListeners.size]).toEqual([0, 0])
  })

  it('a stopped session whose abandoned token request is given up says nothing more', async () => {
    const { session, told } = tab({ stored: userOf('ada', 'access-1', 30), token: neverAnswering })
    session.start()
    await vi.advanceTimersByTimeAsync(20_000 + 10_000)
    expect(told()).toEqual(['signedIn', 'tokenRefreshStarted', 'tokenRefreshInterrupted'])
    session.stop()
    await vi.advanceTimersByTimeAsync(120_000)
    expect(told()).toEqual(['signedIn', 'tokenRefreshStarted', 'tokenRefreshInterrupted'])
  })
})

describe('start-up', () => {
  it('a valid stored user is signed in from storage, with no request', () => {
    const ada = userOf('ada', 'access-1', 900)
    const { session, reports, tokenRequests } = tab({ stored: ada })
    session.start()
    expect(reports).toEqual([
      [
        'signedIn',
        {
          user: { id: 'ada', email: null, name: 'ada', picture: null },
          accessToken: 'access-1',
          expiresAt: ada.expires_at! * 1000,
          arrivedBy: 'storage',
        },
      ],
    ])
    expect(tokenRequests).toEqual([])
  })

  it('a stored token that expires this very second is renewed before anyone is told', async () => {
    const { session, reports, tokenRequests } = tab({ stored: userOf('ada', 'access-1', 0) })
    session.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(tokenRequests).toHaveLength(1)
    expect(reports).toEqual([
      ['tokenRefreshStarted', { by: 'start-up' }],
      ['signedIn', expect.objectContaining({ accessToken: 'renewed-refresh-for-access-1', arrivedBy: 'storage' })],
    ])
  })

  it('an expired stored user while Echo is out of reach: signed in from storage, then reconnecting', async () => {
    const { session, reports } = tab({
      stored: userOf('ada', 'access-1', -60),
      token: () => new Response('down', { status: 503 }),
    })
    session.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(reports).toEqual([
      ['tokenRefreshStarted', { by: 'start-up' }],
      ['signedIn', expect.objectContaining({ accessToken: 'access-1', arrivedBy: 'storage' })],
      ['tokenRefreshInterrupted', { by: 'status', status: 503 }],
    ])
  })

  it('an expired stored user whose renew answers late (11 s): its tokens are taken when they come, before the next try', async () => {
    const { session, told, reports, tokenRequests } = tab({
      stored: userOf('ada', 'access-1', -60),
      token: answeringAfter(11_000),
    })
    session.start()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(told()).toEqual(['tokenRefreshStarted', 'signedIn', 'tokenRefreshInterrupted'])
    await vi.advanceTimersByTimeAsync(1_000)
    expect(reports.at(-1)).toEqual([
      'tokenRefreshed',
      expect.objectContaining({ accessToken: 'renewed-refresh-for-access-1' }),
      { by: 'echo' },
    ])
    expect(tokenRequests).toHaveLength(1)
  })

  it('Echo sent the user back with an error: the sign-in fails in words, arrived by the callback', () => {
    const { session, storage, reports } = tab({ href: `${APP_URL}/?error=access_denied&state=s1` })
    storeSignInState(storage, 's1')
    session.start()
    expect(reports).toEqual([
      [
        'signInFailed',
        expect.objectContaining({ reason: 'sign-in-refused', message: 'Sign-in was refused: access_denied' }),
        'callback',
      ],
    ])
    expect(storage.getItem('oidc.s1')).toBeNull()
  })

  it("Echo's error with a description: the description first, then Echo's code", () => {
    const { session, storage, reports } = tab({
      href: `${APP_URL}/?error=access_denied&error_description=The+user+said+no&state=s1`,
    })
    storeSignInState(storage, 's1')
    session.start()
    expect(reports[0]?.[1]).toMatchObject({ message: 'Sign-in was refused: The user said no (access_denied)' })
  })

  it('a code coming back: the sign-in is told as started on this page, not in a window', () => {
    const { session, storage, reports } = tab({ href: `${APP_URL}/?code=c1&state=s1` })
    storeSignInState(storage, 's1')
    session.start()
    expect(reports[0]).toEqual(['signInStarted', false])
  })
})

describe('a popup page handing its sign-in over', () => {
  const popupPage = () => {
    const page = tab({ href: `${APP_URL}/?code=c1&state=s1` })
    storeSignInState(page.storage, 's1', 'si:p')
    return page
  }

  it('started again while it hands over (StrictMode) listens to nothing and sends nothing', () => {
    const { session, storageListeners, wakeListeners, tokenRequests } = popupPage()
    session.start()
    session.stop()
    session.start()
    expect(session.isHandingOver).toBe(true)
    expect([storageListeners.size, wakeListeners.size, tokenRequests.length]).toEqual([0, 0, 0])
  })

  it('stopped before its opener answers: nothing runs when nobody takes it; started again, it completes the sign-in', async () => {
    const { session, storageListeners, told } = popupPage()
    session.start()
    session.stop()
    await vi.advanceTimersByTimeAsync(5_000)
    expect(session.isHandingOver).toBe(false)
    expect([storageListeners.size, told()]).toEqual([0, []])
    session.start()
    expect(storageListeners.size).toBe(1)
    expect(told()).toEqual(['signInStarted'])
  })
})

describe('getToken()', () => {
  it('is null with nobody signed in', async () => {
    const { session } = tab()
    session.start()
    await expect(session.getToken()).resolves.toBeNull()
  })

  it('rejects NETWORK_ERROR (echo-unreachable) while Echo cannot be reached, never a null', async () => {
    const { session } = tab({
      stored: userOf('ada', 'access-1', 900),
      token: () => new Response('down', { status: 503 }),
    })
    session.start()
    vi.setSystemTime(NOW + 900_000)
    expect(await rejectionOf(session.getToken())).toMatchObject({
      code: 'NETWORK_ERROR',
      reason: 'echo-unreachable',
      message: 'Echo could not be reached to renew the session (it will try again)',
    })
  })

  it("a refresh that gets no answer: getToken() rejects as Echo out of reach, at the attempt's own 10 s", async () => {
    const { session } = tab({ stored: userOf('ada', 'access-1', 900), token: neverAnswering })
    session.start()
    vi.setSystemTime(NOW + 900_000)
    const rejected = rejectionOf(session.getToken())
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await rejected).toMatchObject({ code: 'NETWORK_ERROR', reason: 'echo-unreachable' })
  })

  it('a refresh asked for with nobody signed in sends nothing and tells nothing', async () => {
    const { session, reports, tokenRequests } = tab()
    session.start()
    reports.length = 0
    expect(await rejectionOf(session.coordinator.refreshToken())).toMatchObject({
      message: 'The session ended while its token was being refreshed',
    })
    expect([reports, tokenRequests]).toEqual([[], []])
  })
})

describe('waking up', () => {
  it('the page shown again while the session is fine sends nothing', async () => {
    const { session, tokenRequests, wake } = tab({ stored: userOf('ada', 'access-1', 900) })
    session.start()
    wake('visible')
    wake('online')
    await vi.advanceTimersByTimeAsync(0)
    expect(tokenRequests).toEqual([])
  })
})

describe('the other tabs', () => {
  it('another tab signing in is told as a sign-in arrived from a tab', () => {
    const { session, reports, storedElsewhere } = tab()
    session.start()
    storedElsewhere(userOf('grace', 'access-g', 900))
    expect(reports.at(-1)).toEqual(['signedIn', expect.objectContaining({ accessToken: 'access-g', arrivedBy: 'tab' })])
  })

  it('older tokens stored by another tab are not taken over newer ones', () => {
    const { session, told, storedElsewhere } = tab({ stored: userOf('ada', 'access-new', 900) })
    session.start()
    storedElsewhere(userOf('ada', 'access-old', 300))
    expect(told()).toEqual(['signedIn'])
  })

  it('tokens handed over on the channel are taken while signed in, and with no request', () => {
    const { session, reports, channel, tokenRequests } = tab({ stored: userOf('ada', 'access-1', 300), channel: true })
    session.start()
    channel().receive({ type: 'tokens', user: toStorageString(userOf('ada', 'access-2', 900)) })
    expect(reports.at(-1)).toEqual([
      'tokenRefreshed',
      expect.objectContaining({ accessToken: 'access-2' }),
      { by: 'tab' },
    ])
    expect(tokenRequests).toEqual([])
  })

  it('tokens handed over to a tab that signed out are not taken: it stays signed out', async () => {
    const { session, told, channel } = tab({ stored: userOf('ada', 'access-1', 300), channel: true })
    session.start()
    await session.signOut()
    channel().receive({ type: 'tokens', user: toStorageString(userOf('ada', 'access-2', 900)) })
    expect(told()).toEqual(['signedIn', 'signedOut'])
  })

  it("signed in as Ada, another tab signs in Grace: Ada's due refresh takes Grace's stored tokens, told as arrived from a tab", async () => {
    const { session, storage, reports, tokenRequests } = tab({ stored: userOf('ada', 'access-1', 30) })
    session.start()
    // Stored, its storage event not here yet.
    storage.setItem(USER_KEY, toStorageString(userOf('grace', 'access-g', 900)))
    await vi.advanceTimersByTimeAsync(20_000)
    expect(reports.at(-1)).toEqual(['signedIn', expect.objectContaining({ accessToken: 'access-g', arrivedBy: 'tab' })])
    expect(tokenRequests).toEqual([])
  })

  it("a sign-out during the wait for another tab's hand-over stays signed out, even when that tab's tokens arrive", async () => {
    const { session, told, channel, tokenRequests } = tab({ stored: userOf('ada', 'access-1', 30), channel: true })
    session.start()
    await vi.advanceTimersByTimeAsync(20_000)
    await session.signOut()
    channel().receive({ type: 'tokens', user: toStorageString(userOf('ada', 'access-2', 900)) })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(told()).toEqual(['signedIn', 'tokenRefreshStarted', 'signedOut'])
    expect(tokenRequests).toEqual([])
  })

  it("Echo refusing this tab's refresh tells the other tabs the session ended", async () => {
    const refused = () => Response.json({ error: 'invalid_grant' }, { status: 400 })
    const { session, reports, channel } = tab({ stored: userOf('ada', 'access-1', 30), channel: true, token: refused })
    session.start()
    await vi.advanceTimersByTimeAsync(20_000 + 200)
    expect(channel().posted).toEqual([{ type: 'ended' }])
    expect(reports.at(-1)).toEqual([
      'signedOut',
      { by: 'echo', error: 'invalid_grant' },
      {
        code: 'UNKNOWN_ERROR',
        reason: 'session-ended',
        message: 'Your session has ended. Sign in again.',
      },
    ])
  })

  it('a refusal that comes back after the session stopped is told to no other tab', async () => {
    const refusedLate = answeringAfter(5_000, () => Response.json({ error: 'invalid_grant' }, { status: 400 }))
    const { session, channel, storage } = tab({
      stored: userOf('ada', 'access-1', 30),
      channel: true,
      token: refusedLate,
    })
    session.start()
    await vi.advanceTimersByTimeAsync(20_000 + 200)
    const opened = channel()
    session.stop()
    await vi.advanceTimersByTimeAsync(5_000)
    expect(opened.posted).toEqual([])
    expect(storage.getItem(USER_KEY)).not.toBeNull()
  })

  it("another tab's 'ended' signs this tab out, and leaves storage to the tab that ended it", () => {
    const { session, reports, channel, storage } = tab({ stored: userOf('ada', 'access-1', 900), channel: true })
    session.start()
    channel().receive({ type: 'ended' })
    expect(reports.at(-1)).toEqual([
      'signedOut',
      { by: 'tab-ended' },
      expect.objectContaining({ reason: 'session-ended' }),
    ])
    expect(storage.getItem(USER_KEY)).not.toBeNull()
  })

  it("a tab signed out by the user's own choice shows no 'session ended' when another tab's refresh is refused", async () => {
    const { session, told, channel } = tab({ stored: userOf('ada', 'access-1', 900), channel: true })
    session.start()
    await session.signOut()
    channel().receive({ type: 'ended' })
    expect(told()).toEqual(['signedIn', 'signedOut'])
  })
})

describe('every report says why (the meta.cause Redux DevTools shows)', () => {
  const started = (reports: Report[]) =>
    reports.filter(([name]) => name === 'tokenRefreshStarted').map(([, why]) => why)
  const down: TokenAnswer = () => new Response('down', { status: 503 })

  it('a refresh at the renew time, and the tries while Echo is out of reach: the backoff, online, visible', async () => {
    const { session, reports, wake } = tab({ stored: userOf('ada', 'access-1', 30), token: down })
    session.start()
    await vi.advanceTimersByTimeAsync(20_000)
    await vi.advanceTimersByTimeAsync(2_000)
    wake('online')
    await vi.advanceTimersByTimeAsync(0)
    wake('visible')
    await vi.advanceTimersByTimeAsync(0)
    expect(started(reports)).toEqual([
      { by: 'renew-timer' },
      { by: 'retry', attempt: 2 },
      { by: 'online' },
      { by: 'visible' },
    ])
  })

  it('getToken() finding the token expired, and a refresh asked with no cause (the app’s)', async () => {
    const { session, reports } = tab({ stored: userOf('ada', 'access-1', 30) })
    session.start()
    vi.setSystemTime(NOW + 31_000)
    await session.getToken()
    await session.coordinator.refreshToken()
    expect(started(reports)).toEqual([{ by: 'expired-token' }, { by: 'app' }])
  })

  it('a 401 names the request that got it, method and address, never its query', async () => {
    const api = (_url: string, token: string | null) =>
      token === 'access-1' ? new Response('expired', { status: 401 }) : Response.json({ balance: 1 })
    const { session, reports } = tab({ stored: userOf('ada', 'access-1', 900), api })
    session.start()
    await session.sendAuthorized(`${ECHO}/api/v1/balance?token=not-for-devtools#top`)
    expect(started(reports)).toEqual([{ by: 'unauthorized', request: `GET ${ECHO}/api/v1/balance` }])
  })

  it('a POST sent as a Request names its own method', async () => {
    const api = (_url: string, token: string | null) =>
      token === 'access-1' ? new Response('expired', { status: 401 }) : Response.json({ ok: true })
    const { session, reports } = tab({ stored: userOf('ada', 'access-1', 900), api })
    session.start()
    await session.sendAuthorized(new Request(`${ECHO}/api/v1/stripe/payment-link`, { method: 'POST', body: '{}' }))
    expect(started(reports)).toEqual([{ by: 'unauthorized', request: `POST ${ECHO}/api/v1/stripe/payment-link` }])
  })

  it('an interruption says what failed: no answer at all (offline), with what the browser said', async () => {
    const offline: TokenAnswer = () => Promise.reject(new TypeError('Failed to fetch'))
    const { session, reports } = tab({ stored: userOf('ada', 'access-1', 30), token: offline })
    session.start()
    await vi.advanceTimersByTimeAsync(20_000)
    expect(reports.at(-1)).toEqual(['tokenRefreshInterrupted', { by: 'offline', detail: 'TypeError: Failed to fetch' }])
  })

  it('an interruption at the deadline: no answer within 10 s', async () => {
    const { session, reports } = tab({ stored: userOf('ada', 'access-1', 30), token: neverAnswering })
    session.start()
    await vi.advanceTimersByTimeAsync(20_000 + 10_000)
    expect(reports.at(-1)).toEqual(['tokenRefreshInterrupted', { by: 'deadline' }])
  })

  it('signed out: by the user, with nobody stored at start-up, by another tab, by storage cleared', async () => {
    const signedOutWhy = (reports: Report[]) => reports.filter(([name]) => name === 'signedOut').map(([, why]) => why)
    const nobody = tab()
    nobody.session.start()
    const byUser = tab({ stored: userOf('ada', 'access-1', 900) })
    byUser.session.start()
    await byUser.session.signOut()
    const byTab = tab({ stored: userOf('ada', 'access-1', 900) })
    byTab.session.start()
    byTab.storedElsewhere(null)
    const cleared = tab({ stored: userOf('ada', 'access-1', 900) })
    cleared.session.start()
    cleared.storage.clear()
    for (const listener of [...cleared.storageListeners]) listener({ key: null } as StorageEvent)
    expect([nobody, byUser, byTab, cleared].map(({ reports }) => signedOutWhy(reports))).toEqual([
      [{ by: 'nothing-stored' }],
      [{ by: 'user' }],
      [{ by: 'tab' }],
      [{ by: 'storage-cleared' }],
    ])
  })

  it('signed out as the refresh token ran out: none stored with the user', async () => {
    const { refresh_token: _none, ...withoutRefreshToken } = userOf('ada', 'access-1', -60)
    const { session, reports } = tab({ stored: withoutRefreshToken })
    session.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(reports.at(-1)).toEqual([
      'signedOut',
      { by: 'no-refresh-token' },
      expect.objectContaining({ reason: 'session-ended' }),
    ])
  })

  it('signed out as the sign-in window was closed before signing in', async () => {
    const closedAtOnce = {
      closed: true,
      focus: () => undefined,
      close: () => undefined,
      location: { replace: () => undefined },
      postMessage: () => undefined,
    }
    const page = tab()
    page.session.start()
    vi.useRealTimers()
    const opened = vi.spyOn(page.env, 'openWindow').mockReturnValue(closedAtOnce)
    await expect(page.session.signIn({ popup: true })).rejects.toMatchObject({ reason: 'popup-closed' })
    expect(opened).toHaveBeenCalledOnce()
    expect(page.reports.at(-1)).toEqual(['signedOut', { by: 'window-closed' }, undefined])
  })
})
