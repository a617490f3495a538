import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import type { EchoEnvironment } from '../../src/auth/environment'
import { attemptRefresh, RefreshTurns, type RefreshOutcome } from '../../src/auth/refreshAttempt'
import { refreshExpiresAtMs, storedUserKey, toStorageString, type StoredUser } from '../../src/auth/storedUser'
import { TabSync } from '../../src/auth/tabs'
import type { ResolvedEchoConfig } from '../../src/config'
import { memoryStorage } from '../support/memoryStorage'
import { TabChannel } from '../support/tabChannel'

const config = { apiUrl: 'https://echo.test', appId: 'app-1' } as ResolvedEchoConfig
const USER_KEY = storedUserKey(config)
const NOW = 1_700_000_000_000
const IN_FLIGHT = 'Echo did not answer the refresh for 10 seconds'
const NO_TURN = "The refresh waited for its turn behind another tab's for 10 seconds"

/** A user whose access token expires `expiresInS` seconds from NOW (negative: expired). */
const user = (access: string, expiresInS: number, fields: Partial<StoredUser> = {}): StoredUser => ({
  access_token: access,
  refresh_token: `refresh-of-${access}`,
  token_type: 'Bearer',
  profile: { sub: 'user-1' },
  expires_at: NOW / 1000 + expiresInS,
  ...fields,
})

/** The user this attempt replaces: its access token expired a second ago. */
const FROM = user('access-1', -1)

/** Echo's token endpoint: each request is recorded (when, with what, its signal) and answered by the test. */
function tokenEndpoint() {
  const requests: { at: number; form: Record<string, string>; signal: AbortSignal; answer: (r: Response) => void }[] =
    []
  const fetch = (_input: RequestInfo | URL, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init!.signal!
      signal.addEventListener('abort', () => reject(signal.reason as Error))
      requests.push({
        at: Date.now(),
        form: Object.fromEntries(init!.body as URLSearchParams),
        signal,
        answer: resolve,
      })
    })
  return { fetch, requests }
}

const tokens = (access: string, fields: Record<string, unknown> = {}) =>
  Response.json({
    access_token: access,
    token_type: 'Bearer',
    refresh_token: `refresh-of-${access}`,
    expires_in: 900,
    ...fields,
  })

/**
 * A tab on a fake clock: its storage, its Echo, its tabs (listening, on a channel unless `channel` is
 * false), its refresh turns, and `locks` as given (none: a single tab's Node).
 */
function tab({ channel = true, locks }: { channel?: boolean; locks?: EchoEnvironment['locks'] } = {}) {
  const storage = memoryStorage()
  const echo = tokenEndpoint()
  const channels: TabChannel[] = []
  const env = {
    storage,
    fetch: echo.fetch,
    locks,
    openChannel: channel ? TabChannel.opener(channels) : undefined,
    onStorage: () => () => undefined,
    now: () => Date.now(),
    setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  } as unknown as EchoEnvironment
  const tabs = new TabSync(config, env)
  tabs.listen({ storedUserChanged: () => undefined, handedOver: () => undefined, ended: () => undefined })
  const turns = new RefreshTurns()
  const userScope = new AbortController()
  const late: RefreshOutcome[] = []
  let settled: RefreshOutcome | undefined
  const attempt = (from: StoredUser = FROM) => {
    const outcome = attemptRefresh(
      { env, tabs, turns, config },
      { from, userGone: userScope.signal, onLateOutcome: (outcome) => void late.push(outcome) },
    )
    void outcome.then((value) => void (settled = value))
    return outcome
  }
  return {
    storage,
    echo,
    tabs,
    turns,
    userScope,
    late,
    attempt,
    /** What this tab told the others. */
    told: () => channels[0]?.posted ?? [],
    /** Another tab hands its rotated tokens over on the channel. */
    handOver: (handed: StoredUser) => channels[0]?.receive({ type: 'tokens', user: toStorageString(handed) }),
    get settled() {
      return settled
    },
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  vi.setSystemTime(NOW)
})

afterEach(() => {
  vi.useRealTimers()
})

describe('a refresh attempt that spends the refresh token', () => {
  it('without a channel asks Echo at once, stores the new tokens, and leaves no timer behind', async () => {
    const t = tab({ channel: false })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    expect(t.echo.requests.map(({ at, form }) => ({ at, form }))).toEqual([
      { at: NOW, form: { grant_type: 'refresh_token', refresh_token: 'refresh-of-access-1', client_id: 'app-1' } },
    ])
    t.echo.requests[0]?.answer(tokens('access-2'))
    const renewed = await outcome
    expect(renewed).toEqual({
      kind: 'renewed',
      user: { ...user('access-2', 900), session_state: undefined },
      from: 'echo',
    })
    expect(JSON.parse(t.storage.getItem(USER_KEY)!)).toMatchObject({ access_token: 'access-2' })
    expect(vi.getTimerCount()).toBe(0)
    expect(t.late).toEqual([])
  })

  it('with a channel and nothing newer, waits 150 ms for a hand-over, then asks Echo and tells the tabs', async () => {
    const t = tab()
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(149)
    expect(t.echo.requests).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(t.echo.requests.map(({ at }) => at)).toEqual([NOW + 150])
    t.echo.requests[0]?.answer(tokens('access-2'))
    const renewed = await outcome
    expect(renewed.kind).toBe('renewed')
    const stored = t.storage.getItem(USER_KEY)
    expect(stored).toBe(toStorageString((renewed as { user: StoredUser }).user))
    expect(t.told()).toEqual([{ type: 'tokens', user: stored }])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a hand-over arriving within 150 ms is taken: no token request, nothing stored or told', async () => {
    const t = tab()
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(100)
    t.handOver(user('access-2', 900))
    await vi.advanceTimersByTimeAsync(50)
    expect(await outcome).toEqual({ kind: 'renewed', user: user('access-2', 900), from: 'tab' })
    expect(t.echo.requests).toEqual([])
    expect(t.storage.getItem(USER_KEY)).toBeNull()
    expect(t.told()).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('tokens handed over before the attempt are taken at once, without waiting for another', async () => {
    const t = tab()
    t.handOver(user('access-2', 900))
    void t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    expect(t.settled).toEqual({ kind: 'renewed', user: user('access-2', 900), from: 'tab' })
    expect(t.echo.requests).toEqual([])
  })

  it('newer unexpired tokens in storage (another tab renewed) are taken at once: no request', async () => {
    const t = tab()
    t.storage.setItem(USER_KEY, toStorageString(user('access-2', 1)))
    void t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    expect(t.settled).toEqual({ kind: 'renewed', user: user('access-2', 1), from: 'tab' })
    expect(t.echo.requests).toEqual([])
    expect(t.told()).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })

  it.each([
    ['expire exactly now', 0],
    ['have expired', -0.5],
  ])('newer tokens in storage that %s are not taken: their refresh token is spent', async (_what, expiresInS) => {
    const t = tab({ channel: false })
    t.storage.setItem(USER_KEY, toStorageString(user('access-2', expiresInS)))
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    expect(t.echo.requests.map(({ form }) => form.refresh_token)).toEqual(['refresh-of-access-2'])
    t.echo.requests[0]?.answer(tokens('access-3'))
    expect(await outcome).toMatchObject({ kind: 'renewed', user: { access_token: 'access-3' } })
  })

  it("the user's own tokens, even unexpired, are no reason not to refresh", async () => {
    const t = tab({ channel: false })
    const fresh = user('access-1', 60)
    t.storage.setItem(USER_KEY, toStorageString(fresh))
    const outcome = t.attempt(fresh)
    await vi.advanceTimersByTimeAsync(0)
    expect(t.echo.requests).toHaveLength(1)
    t.echo.requests[0]?.answer(tokens('access-2'))
    expect(await outcome).toMatchObject({ kind: 'renewed', user: { access_token: 'access-2' } })
  })

  it('the late-answer limit aborts the request with a TimeoutError after 60 s', async () => {
    const t = tab({ channel: false })
    void t.attempt()
    await vi.advanceTimersByTimeAsync(60_000)
    const reason = t.echo.requests[0]?.signal.reason as DOMException
    expect([reason.name, reason.message]).toEqual(['TimeoutError', 'No answer within 60000 ms'])
  })
})

describe('a refresh attempt that cannot or need not spend the refresh token', () => {
  it('the user gone before the turn: outlived, nothing asked, stored or told', async () => {
    const t = tab({ channel: false })
    t.userScope.abort()
    expect(await t.attempt()).toStrictEqual({ kind: 'outlived' })
    expect(t.echo.requests).toEqual([])
    expect(t.storage.getItem(USER_KEY)).toBeNull()
  })

  it("the user gone while Echo answers: outlived, Echo's tokens neither stored nor told", async () => {
    const t = tab()
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(150)
    t.userScope.abort()
    t.echo.requests[0]?.answer(tokens('access-2'))
    expect(await outcome).toStrictEqual({ kind: 'outlived' })
    expect(t.storage.getItem(USER_KEY)).toBeNull()
    expect(t.told()).toEqual([])
  })

  it('no refresh token: refused, sign in again, nothing asked', async () => {
    const t = tab({ channel: false })
    const { refresh_token: _spent, ...withoutRefreshToken } = FROM
    expect(await t.attempt(withoutRefreshToken)).toEqual({
      kind: 'refused',
      error: new Error('There is no refresh token to renew the session with: sign in again'),
      cause: { by: 'no-refresh-token' },
    })
    expect(await t.attempt({ ...FROM, refresh_token: '' })).toEqual({
      kind: 'refused',
      error: new Error('There is no refresh token to renew the session with: sign in again'),
      cause: { by: 'no-refresh-token' },
    })
    expect(t.echo.requests).toEqual([])
  })

  it.each([
    ['ends exactly now', NOW],
    ['ended', NOW - 1],
  ])('a refresh token whose life %s: refused, sign in again, nothing asked', async (_what, endsAt) => {
    const t = tab({ channel: false })
    const from = { ...FROM, profile: { sub: 'user-1', echo_rtk_refresh_expires_at: endsAt } }
    expect(await t.attempt(from)).toEqual({
      kind: 'refused',
      error: new Error('The refresh token has expired: sign in again'),
      cause: { by: 'refresh-token-expired' },
    })
    expect(t.echo.requests).toEqual([])
  })

  it('a refresh token with life left is spent', async () => {
    const t = tab({ channel: false })
    const from = { ...FROM, profile: { sub: 'user-1', echo_rtk_refresh_expires_at: NOW + 1 } }
    const outcome = t.attempt(from)
    await vi.advanceTimersByTimeAsync(0)
    t.echo.requests[0]?.answer(tokens('access-2', { refresh_token_expires_in: 3600 }))
    const renewed = await outcome
    expect(renewed.kind).toBe('renewed')
    expect(refreshExpiresAtMs((renewed as { user: StoredUser }).user)).toBe(NOW + 3_600_000)
  })
})

describe("Echo's refusal or silence", () => {
  it("refused, while another tab renewed meanwhile: renewed with the other tab's tokens", async () => {
    const t = tab({ channel: false })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    t.storage.setItem(USER_KEY, toStorageString(user('access-2', 900)))
    t.echo.requests[0]?.answer(Response.json({ error: 'invalid_grant' }, { status: 400 }))
    expect(await outcome).toEqual({ kind: 'renewed', user: user('access-2', 900), from: 'tab' })
  })

  it('refused, and nobody renewed: refused in Echo’s words, nothing stored', async () => {
    const t = tab({ channel: false })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    t.echo.requests[0]?.answer(Response.json({ error: 'invalid_grant' }, { status: 400 }))
    expect(await outcome).toEqual({
      kind: 'refused',
      error: new Error('invalid_grant'),
      cause: { by: 'echo', error: 'invalid_grant' },
    })
    expect(t.storage.getItem(USER_KEY)).toBeNull()
  })

  it('unreachable, while another tab renewed meanwhile: unreachable still (only a refusal looks again)', async () => {
    const t = tab({ channel: false })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    t.storage.setItem(USER_KEY, toStorageString(user('access-2', 900)))
    t.echo.requests[0]?.answer(Response.json({}, { status: 503 }))
    expect(await outcome).toEqual({
      kind: 'unreachable',
      error: new Error("Echo's token endpoint answered 503"),
      cause: { by: 'status', status: 503 },
    })
  })

  it('Echo silent for 10 s: unreachable, Echo did not answer; its late tokens are stored and reported', async () => {
    const t = tab({ channel: false })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await outcome).toEqual({ kind: 'unreachable', error: new Error(IN_FLIGHT), cause: { by: 'deadline' } })
    expect(t.late).toEqual([])
    t.echo.requests[0]?.answer(tokens('access-2'))
    await vi.advanceTimersByTimeAsync(0)
    expect(t.late).toEqual([
      { kind: 'renewed', user: { ...user('access-2', 900), session_state: undefined }, from: 'echo' },
    ])
    expect(JSON.parse(t.storage.getItem(USER_KEY)!)).toMatchObject({ access_token: 'access-2' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('Echo silent for 60 s: the request given up, the late outcome unreachable', async () => {
    const t = tab({ channel: false })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(9_999)
    expect(t.settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(await outcome).toEqual({ kind: 'unreachable', error: new Error(IN_FLIGHT), cause: { by: 'deadline' } })
    await vi.advanceTimersByTimeAsync(49_999)
    expect(t.late).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(t.late).toEqual([
      {
        kind: 'unreachable',
        error: new Error('Echo did not answer the token request in time'),
        cause: { by: 'deadline' },
      },
    ])
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('waiting for the turn', () => {
  it("this tab's previous turn running on for 10 s: unreachable, it waited for its turn; no request", async () => {
    const t = tab({ channel: false })
    void t.turns.take(undefined, t.tabs.name, new AbortController().signal, () => new Promise<void>(() => undefined))
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await outcome).toEqual({ kind: 'unreachable', error: new Error(NO_TURN), cause: { by: 'turn' } })
    await vi.advanceTimersByTimeAsync(0)
    expect(t.late).toEqual([{ kind: 'unreachable', error: new Error(NO_TURN), cause: { by: 'turn' } }])
    expect(t.echo.requests).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('another tab holding the lock for 10 s: unreachable, saying it waited for its turn', async () => {
    const asked: { name: string; mode: string | undefined }[] = []
    const locks = {
      request: (name: string, options: LockOptions, _work: unknown) => {
        asked.push({ name, mode: options.mode })
        return new Promise((_resolve, reject) =>
          options.signal?.addEventListener('abort', () => reject(options.signal?.reason as Error)),
        )
      },
    } as unknown as EchoEnvironment['locks']
    const t = tab({ channel: false, locks })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await outcome).toEqual({ kind: 'unreachable', error: new Error(NO_TURN), cause: { by: 'turn' } })
    await vi.advanceTimersByTimeAsync(0)
    expect(t.late).toEqual([{ kind: 'unreachable', error: new Error(NO_TURN), cause: { by: 'turn' } }])
    expect(asked).toEqual([{ name: t.tabs.name, mode: 'exclusive' }])
    expect(t.echo.requests).toEqual([])
  })

  it('the lock refused at once (before any deadline): unreachable with the lock’s own error', async () => {
    const refusal = new DOMException('The request is not allowed', 'SecurityError')
    const locks = { request: () => Promise.reject(refusal) } as unknown as EchoEnvironment['locks']
    const t = tab({ channel: false, locks })
    expect(await t.attempt()).toEqual({
      kind: 'unreachable',
      error: refusal,
      cause: { by: 'error', message: 'The request is not allowed' },
    })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('the lock granted: the refresh runs in it', async () => {
    const locks = {
      request: (_name: string, _options: LockOptions, work: () => Promise<unknown>) => work(),
    } as unknown as EchoEnvironment['locks']
    const t = tab({ channel: false, locks })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    t.echo.requests[0]?.answer(tokens('access-2'))
    expect(await outcome).toMatchObject({ kind: 'renewed', user: { access_token: 'access-2' } })
  })
})

describe('something breaking in the turn', () => {
  it('storage refusing the write: unreachable with its error', async () => {
    const t = tab({ channel: false })
    const full = new DOMException('The quota has been exceeded', 'QuotaExceededError')
    vi.spyOn(t.storage, 'setItem').mockImplementation(() => {
      throw full
    })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    t.echo.requests[0]?.answer(tokens('access-2'))
    const failed = await outcome
    expect(failed).toEqual({
      kind: 'unreachable',
      error: full,
      cause: { by: 'error', message: 'The quota has been exceeded' },
    })
    expect((failed as { error: Error }).error).toBe(full)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a thrown value that is no Error becomes one, with its text', async () => {
    const t = tab({ channel: false })
    vi.spyOn(t.storage, 'setItem').mockImplementation(() => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a foreign Storage may throw
      throw 'storage is full'
    })
    const outcome = t.attempt()
    await vi.advanceTimersByTimeAsync(0)
    t.echo.requests[0]?.answer(tokens('access-2'))
    expect(await outcome).toEqual({
      kind: 'unreachable',
      error: new Error('storage is full'),
      cause: { by: 'error', message: 'storage is full' },
    })
  })
})
