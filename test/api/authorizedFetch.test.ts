import { delay, http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { createEchoFetch, EchoClient, isAbortError, type TokenProvider } from '../../src/client'
import { server } from '../support/server'
import { API, rotatingTokens } from '../support/tokens'

/** A server that accepts only `validToken()` and records every request it gets. */
function guardedEndpoint(validToken: () => string | null, path = '/api/v1/balance') {
  const requests: { authorization: string | null; retry: string | null }[] = []
  server.use(
    http.get(`${API}${path}`, ({ request }) => {
      const authorization = request.headers.get('authorization')
      requests.push({ authorization, retry: request.headers.get('x-retry') })
      return authorization === `Bearer ${validToken()}`
        ? HttpResponse.json({ balance: 1 })
        : HttpResponse.json({ message: 'Unauthorized' }, { status: 401 })
    }),
  )
  return requests
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the authorized fetch', () => {
  it('sends the token as a bearer header', async () => {
    const { provider } = rotatingTokens('abc')
    const requests = guardedEndpoint(() => 'abc')
    const response = await createEchoFetch({ tokenProvider: provider })(`${API}/api/v1/balance`)
    expect(response.status).toBe(200)
    expect(requests).toEqual([{ authorization: 'Bearer abc', retry: null }])
  })

  it('replaces the credential headers an SDK put there with the user token', async () => {
    const seen: Record<string, string | null>[] = []
    server.use(
      http.post(`${API}/messages`, ({ request }) => {
        seen.push({ authorization: request.headers.get('authorization'), xApiKey: request.headers.get('x-api-key') })
        return HttpResponse.json({})
      }),
    )
    const echoFetch = createEchoFetch({ tokenProvider: rotatingTokens('user-token').provider })
    await echoFetch(`${API}/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'echo', Authorization: 'Bearer echo' },
      body: '{}',
    })
    expect(seen).toEqual([{ authorization: 'Bearer user-token', xApiKey: null }])
  })

  it('on a 401 refreshes once and retries once, marked X-Retry: true', async () => {
    const { provider, state } = rotatingTokens()
    const requests = guardedEndpoint(() => 'token-2')
    const response = await createEchoFetch({ tokenProvider: provider })(`${API}/api/v1/balance`)
    expect(response.status).toBe(200)
    expect(state.refreshCalls).toBe(1)
    expect(requests).toEqual([
      { authorization: 'Bearer token-1', retry: null },
      { authorization: 'Bearer token-2', retry: 'true' },
    ])
  })

  it('returns a second 401 after the marked retry instead of retrying again', async () => {
    const { provider, state } = rotatingTokens()
    const requests = guardedEndpoint(() => 'never-valid')
    const response = await createEchoFetch({ tokenProvider: provider })(`${API}/api/v1/balance`)
    expect(response.status).toBe(401)
    expect(requests).toHaveLength(2)
    expect(state.refreshCalls).toBe(1)
  })

  it('replays a Request body on the retry', async () => {
    const { provider } = rotatingTokens()
    const bodies: string[] = []
    server.use(
      http.post(`${API}/chat/completions`, async ({ request }) => {
        bodies.push(await request.text())
        return request.headers.get('authorization') === 'Bearer token-2'
          ? HttpResponse.json({ ok: true })
          : HttpResponse.json({}, { status: 401 })
      }),
    )
    const request = new Request(`${API}/chat/completions`, { method: 'POST', body: '{"model":"m"}' })
    const response = await createEchoFetch({ tokenProvider: provider })(request)
    expect(response.status).toBe(200)
    expect(bodies).toEqual(['{"model":"m"}', '{"model":"m"}'])
  })

  it('a caller whose token was already replaced retries at once without refreshing again', async () => {
    const { provider, state } = rotatingTokens()
    const echoFetch = createEchoFetch({ tokenProvider: provider })
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    server.use(
      http.get(`${API}/slow`, async () => {
        await held
        return HttpResponse.json({}, { status: 401 })
      }),
      http.get(`${API}/ok`, ({ request }) =>
        request.headers.get('authorization') === `Bearer ${state.current}`
          ? HttpResponse.json({})
          : HttpResponse.json({}, { status: 401 }),
      ),
    )
    // The slow request leaves with token-1; meanwhile token-1 is refreshed to token-2.
    const slow = echoFetch(`${API}/slow`)
    await provider.refreshToken()
    server.use(
      http.get(`${API}/slow`, ({ request }) => HttpResponse.json({ token: request.headers.get('authorization') })),
    )
    release()
    const response = await slow
    expect(await response.json()).toEqual({ token: 'Bearer token-2' })
    expect(state.refreshCalls).toBe(1)
  })

  it("a client's own fetch and its calls share one refresh", async () => {
    const { provider, state } = rotatingTokens()
    guardedEndpoint(() => 'token-2')
    server.use(
      http.get(`${API}/other`, ({ request }) =>
        request.headers.get('authorization') === 'Bearer token-2'
          ? HttpResponse.json({})
          : HttpResponse.json({}, { status: 401 }),
      ),
    )
    const client = new EchoClient({ tokenProvider: provider, apiUrl: API })
    const [balance, other] = await Promise.all([client.balance.get(), client.fetch(`${API}/other`)])
    expect(balance).toEqual({ balance: 1 })
    expect(other.status).toBe(200)
    expect(state.refreshCalls).toBe(1)
  })

  it('an EchoClient and a createEchoFetch built on the same token provider share one refresh', async () => {
    const { provider, state } = rotatingTokens()
    guardedEndpoint(() => 'token-2')
    const client = new EchoClient({ tokenProvider: provider, apiUrl: API })
    const echoFetch = createEchoFetch({ tokenProvider: provider })
    const [balance, response] = await Promise.all([client.balance.get(), echoFetch(`${API}/api/v1/balance`)])
    expect(balance).toEqual({ balance: 1 })
    expect(response.status).toBe(200)
    expect(state.refreshCalls).toBe(1)
  })

  it('sends nothing for a signed-out user, and rejects with "Not authenticated"', async () => {
    const { provider, state } = rotatingTokens()
    state.current = null
    const requests = guardedEndpoint(() => 'token-1')
    await expect(createEchoFetch({ tokenProvider: provider })(`${API}/api/v1/balance`)).rejects.toMatchObject({
      code: 'UNKNOWN_ERROR',
      reason: 'not-authenticated',
      message: 'Not authenticated',
    })
    expect(requests).toEqual([])
  })

  it('takes an empty-string token for no token: nothing is sent', async () => {
    const { provider, state } = rotatingTokens('')
    const requests = guardedEndpoint(() => '')
    await expect(createEchoFetch({ tokenProvider: provider })(`${API}/api/v1/balance`)).rejects.toMatchObject({
      message: 'Not authenticated',
    })
    expect(requests).toEqual([])
    expect(state.refreshCalls).toBe(0)
  })

  it('a 401 with a fixed API key is final: one request, and the error speaks of no refresh', async () => {
    const requests = guardedEndpoint(() => 'another-key')
    const client = new EchoClient({ apiKey: 'fixed-key', apiUrl: API })
    await expect(client.balance.get()).rejects.toMatchObject({
      code: 'HTTP_401',
      message: '{"message":"Unauthorized"} while fetching balance',
    })
    expect(requests).toEqual([{ authorization: 'Bearer fixed-key', retry: null }])
  })

  it('a 401 on a request whose body was a stream refreshes the token and comes back as it is: the spent body is not sent again', async () => {
    const { provider, state } = rotatingTokens()
    const authorizations: (string | null)[] = []
    server.use(
      http.post(`${API}/upload`, ({ request }) => {
        authorizations.push(request.headers.get('authorization'))
        return request.headers.get('authorization') === 'Bearer token-2'
          ? HttpResponse.json({})
          : HttpResponse.json({}, { status: 401 })
      }),
    )
    const echoFetch = createEchoFetch({ tokenProvider: provider })
    const streamedUpload = (): RequestInit => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('part'))
          controller.close()
        },
      })
      // `duplex` is what fetch requires for a stream body; TypeScript's RequestInit does not list it yet.
      return { method: 'POST', body, duplex: 'half' } as RequestInit
    }
    const first = await echoFetch(`${API}/upload`, streamedUpload())
    expect(first.status).toBe(401)
    expect(state.refreshCalls).toBe(1)
    expect(authorizations).toEqual(['Bearer token-1'])
    const next = await echoFetch(`${API}/upload`, streamedUpload())
    expect(next.status).toBe(200)
  })

  it('a 401 without a body is retried after the refresh like any other', async () => {
    const { provider } = rotatingTokens()
    const sent: string[] = []
    const fetch = (_input: RequestInfo | URL, init?: RequestInit) => {
      const authorization = new Headers(init?.headers).get('authorization')!
      sent.push(authorization)
      return Promise.resolve(
        authorization === 'Bearer token-2' ? new Response('{}') : new Response(null, { status: 401 }),
      )
    }
    const response = await createEchoFetch({ tokenProvider: provider, fetch })(`${API}/api/v1/balance`)
    expect(response.status).toBe(200)
    expect(sent).toEqual(['Bearer token-1', 'Bearer token-2'])
  })

  describe('refresh failure', () => {
    const failingTokens = (error: Error) => {
      const errors: Error[] = []
      let refreshCalls = 0
      const provider: TokenProvider = {
        getAccessToken: () => Promise.resolve('expired'),
        refreshToken: () => {
          refreshCalls += 1
          return Promise.reject(error)
        },
        onRefreshError: (e) => errors.push(e),
      }
      return { provider, errors, refreshCalls: () => refreshCalls }
    }

    it('calls onRefreshError once and fails every waiting request with HTTP_401', async () => {
      const { provider, errors, refreshCalls } = failingTokens(new Error('invalid_request'))
      guardedEndpoint(() => 'fresh')
      const client = new EchoClient({ tokenProvider: provider, apiUrl: API })
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => client.balance.get()))
      expect(refreshCalls()).toBe(1)
      expect(errors.map((e) => e.message)).toEqual(['invalid_request'])
      for (const result of results) {
        expect(result).toMatchObject({
          status: 'rejected',
          reason: {
            code: 'HTTP_401',
            statusCode: 401,
            message: '{"message":"Unauthorized"} (token refresh failed: invalid_request) while fetching balance',
          },
        })
      }
    })

    it('a refresh that yields no new token is a failure', async () => {
      const errors: Error[] = []
      const provider: TokenProvider = {
        getAccessToken: () => Promise.resolve('same'),
        refreshToken: () => Promise.resolve(),
        onRefreshError: (e) => errors.push(e),
      }
      guardedEndpoint(() => 'fresh')
      const response = await createEchoFetch({ tokenProvider: provider })(`${API}/api/v1/balance`)
      expect(response.status).toBe(401)
      expect(errors.map((e) => e.message)).toEqual(['Silent renew did not yield a new access token'])
    })

    it('a hung refresh gives up after 10 seconds: every waiter fails as a call that got no answer (NETWORK_ERROR), and the next call tries again', async () => {
      vi.useFakeTimers()
      const errors: Error[] = []
      let refreshCalls = 0
      const provider: TokenProvider = {
        getAccessToken: () => Promise.resolve('expired'),
        refreshToken: () => {
          refreshCalls += 1
          return new Promise<never>(() => undefined)
        },
        onRefreshError: (e) => errors.push(e),
      }
      const unauthorized = () => Promise.resolve(new Response('Unauthorized', { status: 401 }))
      const client = new EchoClient({ tokenProvider: provider, apiUrl: API, fetch: unauthorized })
      const settled = Array.from({ length: 3 }, () =>
        client.balance.get().then(
          () => 'resolved',
          (e: unknown) => e,
        ),
      )
      await vi.advanceTimersByTimeAsync(9_999)
      expect(errors).toEqual([])
      await vi.advanceTimersByTimeAsync(1)
      expect(errors.map((e) => e.message)).toEqual(['Token refresh timed out after 10 seconds'])
      for (const outcome of await Promise.all(settled)) {
        expect(outcome).toMatchObject({
          code: 'NETWORK_ERROR',
          reason: 'refresh-timeout',
          message: 'Token refresh timed out after 10 seconds while fetching balance',
        })
      }
      expect(refreshCalls).toBe(1)
      const next = client.balance.get().catch((e: unknown) => e)
      await vi.advanceTimersByTimeAsync(10_000)
      expect(await next).toMatchObject({ code: 'NETWORK_ERROR' })
      expect(refreshCalls).toBe(2)
    })
  })

  describe('abort', () => {
    it('an aborted request never starts a refresh', async () => {
      const { provider, state } = rotatingTokens()
      const controller = new AbortController()
      const fetchThenAbort = () => {
        controller.abort()
        return Promise.resolve(new Response('Unauthorized', { status: 401 }))
      }
      const client = new EchoClient({ tokenProvider: provider, apiUrl: API, fetch: fetchThenAbort })
      const error = await client.balance.get({ signal: controller.signal }).catch((e: unknown) => e)
      expect(isAbortError(error)).toBe(true)
      expect(state.refreshCalls).toBe(0)
    })

    it('a request aborted while it waits for a refresh stops waiting; the refresh goes on for the others', async () => {
      let finishRefresh!: () => void
      let current = 'old'
      const provider: TokenProvider = {
        getAccessToken: () => Promise.resolve(current),
        refreshToken: () =>
          new Promise<string>((resolve) => {
            finishRefresh = () => resolve((current = 'new'))
          }),
      }
      guardedEndpoint(() => (current === 'new' ? 'new' : 'none'))
      const client = new EchoClient({ tokenProvider: provider, apiUrl: API })
      const controller = new AbortController()
      const patient = client.balance.get()
      const impatient = client.balance.get({ signal: controller.signal }).catch((e: unknown) => e)
      await vi.waitFor(() => expect(finishRefresh).toBeTypeOf('function'))
      controller.abort()
      expect(isAbortError(await impatient)).toBe(true)
      finishRefresh()
      await expect(patient).resolves.toEqual({ balance: 1 })
    })
  })

  // Some 2,000 exchanges: msw 3 carries each over a mocked socket, seconds in all, more in a parallel run.
  it('1,000 concurrent requests with an expired token, 401s before, during and after the refresh: 1 refresh, 1,000 successes, none sent more than twice', async () => {
    const valid = { token: 'fresh-0' }
    let refreshCalls = 0
    let phase: 'before' | 'during' | 'after' = 'before'
    const rejectedIn = { before: 0, during: 0, after: 0 }
    server.use(
      http.post(`${API}/api/oauth/token`, async () => {
        refreshCalls += 1
        phase = 'during'
        await delay(40)
        valid.token = `fresh-${refreshCalls}`
        phase = 'after'
        return HttpResponse.json({ access_token: valid.token })
      }),
    )
    let current = 'expired'
    const provider: TokenProvider = {
      getAccessToken: () => Promise.resolve(current),
      refreshToken: async () => {
        const answer = await fetch(`${API}/api/oauth/token`, { method: 'POST' })
        current = ((await answer.json()) as { access_token: string }).access_token
        return current
      },
    }
    const sends = new Map<string, number>()
    server.use(
      http.get(`${API}/api/v1/balance`, async ({ request }) => {
        const id = new URL(request.url).searchParams.get('id')!
        sends.set(id, (sends.get(id) ?? 0) + 1)
        const ok = request.headers.get('authorization') === `Bearer ${valid.token}`
        // Rejections spread from before the refresh starts to well after it ends.
        if (!ok) await delay(Number(id) % 400)
        if (!ok) rejectedIn[phase] += 1
        return ok ? HttpResponse.json({ id }) : HttpResponse.json({ message: 'Unauthorized' }, { status: 401 })
      }),
    )
    const echoFetch = createEchoFetch({ tokenProvider: provider })
    const responses = await Promise.all(
      Array.from({ length: 1000 }, (_, id) => echoFetch(`${API}/api/v1/balance?id=${id}`).then((r) => r.status)),
    )
    expect(refreshCalls).toBe(1)
    expect(responses.filter((status) => status === 200)).toHaveLength(1000)
    expect(Math.max(...sends.values())).toBeLessThanOrEqual(2)
    expect(sends.size).toBe(1000)
    expect(rejectedIn.before).toBeGreaterThan(0)
    expect(rejectedIn.during).toBeGreaterThan(0)
    expect(rejectedIn.after).toBeGreaterThan(0)
  }, 30_000)
})
