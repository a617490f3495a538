import { describe, expect, it } from 'vitest'

import { requestRefreshGrant, type RefreshableUser } from '../../src/auth/refreshAttempt'
import { refreshExpiresAtMs, type StoredUser } from '../../src/auth/storedUser'

const config = { apiUrl: 'https://echo.test', appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50' }
const NOW = 1_700_000_000_000
const user: RefreshableUser = {
  access_token: 'access-1',
  refresh_token: 'refresh-1',
  token_type: 'Bearer',
  scope: 'llm:invoke offline_access',
  profile: { sub: 'user-1', name: 'Ada' },
  expires_at: NOW / 1000 - 1,
}

/** Answers every request with `answer`, recording what was sent. */
function answering(answer: () => Response | Promise<Response>) {
  const sent: { url: string; init: RequestInit | undefined }[] = []
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: input instanceof Request ? input.url : input.toString(), init })
    return Promise.resolve().then(answer)
  }
  return { fetch, sent }
}

const grant = (
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
  signal = new AbortController().signal,
) => requestRefreshGrant(fetch, config, user, { now: NOW, signal })

/** A user signed in without a scope. */
const UNSCOPED: RefreshableUser = {
  access_token: 'access-1',
  refresh_token: 'refresh-1',
  token_type: 'Bearer',
  profile: user.profile,
}

const grantFor = (
  refreshable: RefreshableUser,
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
) => requestRefreshGrant(fetch, config, refreshable, { now: NOW, signal: new AbortController().signal })

describe("the refresh-token grant at Echo's token endpoint", () => {
  it('posts the refresh token, the app id and the scope as a form, as oidc-client-ts did', async () => {
    const { fetch, sent } = answering(() => Response.json({ access_token: 'access-2', expires_in: 900 }))
    await grant(fetch)
    expect(sent[0]?.url).toBe('https://echo.test/api/oauth/token')
    expect(sent[0]?.init?.method).toBe('POST')
    expect(Object.fromEntries(sent[0]!.init!.body as URLSearchParams)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
      client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
      scope: 'llm:invoke offline_access',
    })
  })

  it("new tokens: the rotated refresh token, the expiry from this clock, the profile carried over, the refresh token's life noted", async () => {
    const { fetch } = answering(() =>
      Response.json({
        access_token: 'access-2',
        token_type: 'Bearer',
        expires_in: 900,
        refresh_token: 'refresh-2',
        refresh_token_expires_in: 2_592_000,
        scope: 'llm:invoke offline_access',
      }),
    )
    const answer = await grant(fetch)
    expect(answer.kind).toBe('tokens')
    const renewed = (answer as { user: StoredUser }).user
    expect(renewed).toMatchObject({
      access_token: 'access-2',
      refresh_token: 'refresh-2',
      expires_at: NOW / 1000 + 900,
      profile: { sub: 'user-1', name: 'Ada' },
    })
    expect(refreshExpiresAtMs(renewed)).toBe(NOW + 2_592_000_000)
  })

  it('a user without a scope sends none; an answer without an expiry, or with odd fields, keeps what it had', async () => {
    const { fetch, sent } = answering(() =>
      Response.json({ access_token: 'access-2', refresh_token: 42, scope: '', expires_in: 'soon' }),
    )
    const answer = await grantFor(UNSCOPED, fetch)
    expect((sent[0]!.init!.body as URLSearchParams).has('scope')).toBe(false)
    expect(answer).toMatchObject({
      kind: 'tokens',
      user: { access_token: 'access-2', refresh_token: 'refresh-1', token_type: 'Bearer' },
    })
    expect((answer as { user: StoredUser }).user.expires_at).toBeUndefined()
    expect((answer as { user: StoredUser }).user.scope).toBeUndefined()
  })

  it('a JSON answer that is no object (a list) is not Echo speaking: unreachable', async () => {
    const answer = await grant(answering(() => Response.json([{ access_token: 'access-2' }])).fetch)
    expect(answer.kind).toBe('unreachable')
  })

  it('an answer without a refresh token keeps the one that was sent', async () => {
    const answer = await grant(answering(() => Response.json({ access_token: 'access-2', expires_in: 900 })).fetch)
    expect(answer).toMatchObject({ kind: 'tokens', user: { access_token: 'access-2', refresh_token: 'refresh-1' } })
  })

  it.each([
    [
      400,
      { error: 'invalid_request', error_description: 'Invalid refresh token' },
      'Invalid refresh token',
      'invalid_request',
    ],
    [400, { error: 'invalid_request' }, 'invalid_request', 'invalid_request'],
    [401, { error: 'invalid_client' }, 'invalid_client', 'invalid_client'],
    [403, 'Forbidden', 'Echo refused the refresh (status 403)', 'status 403'],
  ])(
    "Echo refusing it (%i) ends the session: refused, in Echo's words, its error code the cause",
    async (status, body, message, error) => {
      const answer = await grant(
        answering(() => (typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status })))
          .fetch,
      )
      expect(answer).toEqual({ kind: 'refused', error: new Error(message), cause: { by: 'echo', error } })
    },
  )

  it("an answer of Echo's without an access token is refused too, with the message the specification gives", async () => {
    const answer = await grant(answering(() => Response.json({ token_type: 'Bearer' })).fetch)
    expect(answer).toEqual({
      kind: 'refused',
      error: new Error('Silent renew did not yield a new access token'),
      cause: { by: 'no-access-token' },
    })
  })

  it.each([500, 502, 503, 504, 429, 408])(
    'a %i says nothing about the refresh token: unreachable, tried again',
    async (status) => {
      const answer = await grant(answering(() => Response.json({ error: 'temporarily_unavailable' }, { status })).fetch)
      expect(answer).toEqual({
        kind: 'unreachable',
        error: new Error(`Echo's token endpoint answered ${status}`),
        cause: { by: 'status', status },
      })
    },
  )

  it("a 200 that is not Echo's JSON (a captive portal's page) is unreachable, not a refusal", async () => {
    const answer = await grant(
      answering(() => new Response('<html>Sign in to the hotel Wi-Fi</html>', { status: 200 })).fetch,
    )
    expect(answer).toMatchObject({ kind: 'unreachable', cause: { by: 'not-echo', status: 200 } })
  })

  it('offline, a reset, or the page going away (the fetch rejects): unreachable', async () => {
    const offline = await grant(() => Promise.reject(new TypeError('Failed to fetch')))
    expect(offline).toEqual({
      kind: 'unreachable',
      error: new Error('TypeError: Failed to fetch'),
      cause: { by: 'offline', detail: 'TypeError: Failed to fetch' },
    })
    const cutMidBody = await grant(
      answering(() => new Response(new ReadableStream({ start: (c) => c.error(new TypeError('network error')) })))
        .fetch,
    )
    expect(cutMidBody).toMatchObject({ kind: 'unreachable', cause: { by: 'offline' } })
  })

  it('given up through its signal (the late-answer limit): unreachable, saying so', async () => {
    const controller = new AbortController()
    const hung = (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )
    const pending = grant(hung, controller.signal)
    controller.abort()
    expect(await pending).toEqual({
      kind: 'unreachable',
      error: new Error('Echo did not answer the token request in time'),
      cause: { by: 'deadline' },
    })
  })

  it('never throws, even when the fetch throws before it returns a promise', async () => {
    const throwing = () => {
      throw new TypeError('Failed to construct Request')
    }
    await expect(grant(throwing)).resolves.toEqual({
      kind: 'unreachable',
      error: new Error('TypeError: Failed to construct Request'),
      cause: { by: 'offline', detail: 'TypeError: Failed to construct Request' },
    })
  })
})

describe("what is made of Echo's answer", () => {
  const answered = (body: unknown, status = 200) =>
    grant(
      answering(() => (typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status })))
        .fetch,
    )

  /** An answer a `Response` cannot be built with (its status is outside 200–599), as a fetch could hand it over. */
  const answeredWithStatus = (status: number, body: unknown) =>
    grant(() => Promise.resolve({ status, text: () => Promise.resolve(JSON.stringify(body)) } as Response))

  const renewed = async (body: Record<string, unknown>) => {
    const answer = await answered(body)
    expect(answer.kind).toBe('tokens')
    return (answer as { user: StoredUser }).user
  }

  it("the scope Echo grants replaces the user's", async () => {
    expect((await renewed({ access_token: 'access-2', scope: 'llm:invoke' })).scope).toBe('llm:invoke')
  })

  it("an answer without a scope keeps the user's", async () => {
    expect((await renewed({ access_token: 'access-2' })).scope).toBe('llm:invoke offline_access')
  })

  it('no scope in the answer nor the user: the renewed user has no scope field at all', async () => {
    const { fetch } = answering(() => Response.json({ access_token: 'access-2', token_type: 'Bearer' }))
    const answer = await grantFor(UNSCOPED, fetch)
    expect(answer).toStrictEqual({
      kind: 'tokens',
      user: {
        session_state: undefined,
        access_token: 'access-2',
        refresh_token: 'refresh-1',
        token_type: 'Bearer',
        profile: user.profile,
      },
    })
    expect(Object.keys((answer as { user: StoredUser }).user)).not.toContain('scope')
  })

  it('the new user field by field: session state and profile carried over, expiry in whole seconds', async () => {
    const { fetch } = answering(() =>
      Response.json({ access_token: 'access-2', token_type: 'bearer', refresh_token: 'refresh-2', expires_in: 900 }),
    )
    const stateful: RefreshableUser = { ...user, session_state: 'state-1' }
    const answer = await requestRefreshGrant(fetch, config, stateful, {
      now: NOW + 999,
      signal: new AbortController().signal,
    })
    expect(answer).toStrictEqual({
      kind: 'tokens',
      user: {
        session_state: 'state-1',
        access_token: 'access-2',
        refresh_token: 'refresh-2',
        token_type: 'bearer',
        scope: 'llm:invoke offline_access',
        profile: { sub: 'user-1', name: 'Ada' },
        expires_at: NOW / 1000 + 900,
      },
    })
  })

  it.each([
    ['text', '900'],
    ['null', null],
    ['too large to be a number (1e999 parses as Infinity)', '1e999'],
  ])('an expires_in that is %s gives no expiry', async (_what, expiresIn) => {
    const body =
      expiresIn === '1e999'
        ? '{"access_token":"access-2","expires_in":1e999}'
        : { access_token: 'access-2', expires_in: expiresIn }
    const answer = await answered(body)
    expect(answer.kind).toBe('tokens')
    expect(Object.keys((answer as { user: StoredUser }).user)).not.toContain('expires_at')
  })

  it.each([
    ['empty', ''],
    ['not text', 42],
    ['null', null],
  ])('an access token that is %s is refused: no new access token', async (_what, accessToken) => {
    expect(await answered({ access_token: accessToken, refresh_token: 'refresh-2' })).toEqual({
      kind: 'refused',
      error: new Error('Silent renew did not yield a new access token'),
      cause: { by: 'no-access-token' },
    })
  })

  it.each([
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"access-2"'],
    ['a list', '[{"access_token":"access-2"}]'],
  ])("a 200 whose JSON is %s is not Echo's answer: unreachable, saying so", async (_what, body) => {
    expect(await answered(body)).toEqual({
      kind: 'unreachable',
      error: new Error("The token endpoint's answer is not Echo's (status 200, not a JSON object)"),
      cause: { by: 'not-echo', status: 200 },
    })
  })

  it.each([300, 302, 304, 199, 100])('a %i with tokens in it is no grant: refused', async (status) => {
    expect(await answeredWithStatus(status, { access_token: 'access-2', error: 'not_a_grant' })).toEqual({
      kind: 'refused',
      error: new Error('not_a_grant'),
      cause: { by: 'echo', error: 'not_a_grant' },
    })
  })

  it('a 299 with tokens in it is a grant, as a 200 is', async () => {
    const answer = await answeredWithStatus(299, { access_token: 'access-2' })
    expect(answer).toMatchObject({ kind: 'tokens', user: { access_token: 'access-2' } })
  })

  it.each([
    [{ error_description: 'Refresh token revoked', error: 'invalid_grant' }, 'Refresh token revoked', 'invalid_grant'],
    [{ error: 'invalid_grant' }, 'invalid_grant', 'invalid_grant'],
    [{ error_description: '', error: 'invalid_grant' }, 'invalid_grant', 'invalid_grant'],
    [{ error_description: 42, error: 'invalid_grant' }, 'invalid_grant', 'invalid_grant'],
    [{ error_description: 42 }, 'Echo refused the refresh (status 400)', 'status 400'],
    [{ error: '' }, 'Echo refused the refresh (status 400)', 'status 400'],
    [{}, 'Echo refused the refresh (status 400)', 'status 400'],
    [null, 'Echo refused the refresh (status 400)', 'status 400'],
  ])('a refusal reading %j is told as %j, its cause %j', async (body, message, error) => {
    expect(await answered(body === null ? 'null' : body, 400)).toEqual({
      kind: 'refused',
      error: new Error(message),
      cause: { by: 'echo', error },
    })
  })

  it.each([
    ['a sentence', 'The refresh token was revoked by an administrator'],
    ['too long for a code', 'x'.repeat(65)],
    ['not ASCII', 'refusé'],
    ['not text', 42],
  ])("Echo's error that is %s reaches the cause as the status, never as its text", async (_what, error) => {
    expect(await answered({ error }, 400)).toMatchObject({ cause: { by: 'echo', error: 'status 400' } })
  })

  it('what the browser said of a request with no answer reaches the cause cut to 120 characters', async () => {
    const long = await grant(() => Promise.reject(new TypeError('x'.repeat(300))))
    expect((long as { cause: { detail: string } }).cause.detail).toBe(`TypeError: ${'x'.repeat(108)}…`)
    const exactly = await grant(() => Promise.reject(new TypeError('x'.repeat(109))))
    expect((exactly as { cause: { detail: string } }).cause.detail).toBe(`TypeError: ${'x'.repeat(109)}`)
  })
})
