import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { PageLifetimeStorage } from '../../src/auth/environment'
import { EchoClient, EchoError, isAbortError } from '../../src/client'
import { server } from '../support/server'
import { API } from '../support/tokens'

interface Seen {
  method: string
  path: string
  authorization: string | null
  contentType: string | null
  body: unknown
}

/** Answers every /api/v1 call with `answer` and records what was sent. */
function recordCalls(answer: Record<string, unknown> = {}) {
  const seen: Seen[] = []
  server.use(
    http.all(`${API}/api/v1/*`, async ({ request }) => {
      const text = await request.text()
      seen.push({
        method: request.method,
        path: new URL(request.url).pathname,
        authorization: request.headers.get('authorization'),
        contentType: request.headers.get('content-type'),
        body: text === '' ? undefined : JSON.parse(text),
      })
      return HttpResponse.json(answer)
    }),
  )
  return seen
}

const client = () => new EchoClient({ apiKey: 'key-1', apiUrl: API })

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('EchoClient', () => {
  it('refuses to be built without an API key or a token provider', () => {
    for (const options of [{}, undefined, null]) {
      expect(() => new EchoClient(options as never)).toThrow(
        expect.objectContaining({ name: 'EchoError', message: 'No API key or token provider provided' }),
      )
    }
  })

  it('refuses an apiUrl that is not an absolute http(s) URL, naming it', () => {
    expect(() => new EchoClient({ apiKey: 'k', apiUrl: 'echo.test' })).toThrow(
      'EchoConfig.apiUrl must be an absolute http(s) URL, got "echo.test"',
    )
  })

  it.each([
    ['apps.list', (c: EchoClient) => c.apps.list(), 'GET', '/api/v1/apps', undefined],
    ['apps.get', (c: EchoClient) => c.apps.get('app/1'), 'GET', '/api/v1/apps/app%2F1', undefined],
    ['balance.get', (c: EchoClient) => c.balance.get(), 'GET', '/api/v1/balance', undefined],
    [
      'balance.getFree',
      (c: EchoClient) => c.balance.getFree('2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51'),
      'POST',
      '/api/v1/balance/free',
      { echoAppId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51' },
    ],
    ['models.supported', (c: EchoClient) => c.models.supported(), 'GET', '/api/v1/supported-models', undefined],
    [
      'payments.createPaymentLink',
      (c: EchoClient) =>
        c.payments.createPaymentLink({ amount: 10, description: 'Top-up', successUrl: 'https://app.test/done' }),
      'POST',
      '/api/v1/stripe/payment-link',
      { amount: 10, description: 'Top-up', successUrl: 'https://app.test/done' },
    ],
    ['users.get', (c: EchoClient) => c.users.get(), 'GET', '/api/v1/user', undefined],
    [
      'users.registerReferral',
      (c: EchoClient) =>
        c.users.registerReferral({ echoAppId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51', code: 'FRIEND' }),
      'POST',
      '/api/v1/user/referral',
      { echoAppId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51', code: 'FRIEND' },
    ],
  ] as const)('%s sends %s %s with the bearer token and its body', async (_name, call, method, path, body) => {
    const seen = recordCalls({ apps: [], models: [], paymentLink: { url: 'https://pay.echo.test/1' } })
    await call(client())
    expect(seen).toEqual([
      {
        method,
        path,
        authorization: 'Bearer key-1',
        contentType: body === undefined ? null : 'application/json',
        body,
      },
    ])
  })

  it('returns the answer as parsed JSON', async () => {
    recordCalls({ totalPaid: 12, totalSpent: 2, balance: 10, currency: 'USD' })
    await expect(client().balance.get()).resolves.toEqual({
      totalPaid: 12,
      totalSpent: 2,
      balance: 10,
      currency: 'USD',
    })
  })

  it('returns the app list as { apps } whether the server sends { apps } or a page of { items }', async () => {
    const app = { id: 'a1', name: 'Demo' }
    recordCalls({ items: [app], page: 0, page_size: 10, total_count: 1, has_next: false })
    await expect(client().apps.list()).resolves.toEqual({ apps: [app] })
    recordCalls({ apps: [app] })
    await expect(client().apps.list()).resolves.toEqual({ apps: [app] })
  })

  it.each([{}, { apps: null }, { items: 'none' }, null])(
    'an app list answer with no list (%j) is an EchoError',
    async (answer) => {
      recordCalls(answer as Record<string, unknown>)
      await expect(client().apps.list()).rejects.toMatchObject({
        name: 'EchoError',
        code: 'UNKNOWN_ERROR',
        message: 'Echo answered without a list of apps (apps or items) while listing apps',
        endpoint: '/api/v1/apps',
      })
    },
  )

  describe("the supported models: Echo's route, else the list Echo's own SDK ships", () => {
    const route = `${API}/api/v1/supported-models`
    const gpt4oMini = {
      model_id: 'gpt-4o-mini',
      provider: 'OpenAI',
      input_cost_per_token: 1.5e-7,
      output_cost_per_token: 6e-7,
    }

    it("Echo's answer, when it has the route, says so", async () => {
      const model = { model_id: 'm-1', provider: 'openai' }
      server.use(http.get(route, () => HttpResponse.json({ models: [model], models_by_provider: { openai: [model] } })))
      await expect(client().models.supported()).resolves.toEqual({
        models: [model],
        models_by_provider: { openai: [model] },
        source: 'echo',
      })
    })

    it("Echo without the route (404): the list of Echo's SDK, its version named, grouped by provider, after one request", async () => {
      let requests = 0
      server.use(http.get(route, () => ((requests += 1), HttpResponse.json({ message: 'Not Found' }, { status: 404 }))))
      const models = await client().models.supported()
      expect(models).toMatchObject({ source: 'echo-sdk', sdkVersion: '1.0.23' })
      expect(models.models).toContainEqual(gpt4oMini)
      expect(models.models_by_provider.OpenAI).toContainEqual(gpt4oMini)
      expect(Object.keys(models.models_by_provider).sort()).toEqual([
        'Anthropic',
        'Gemini',
        'Groq',
        'OpenAI',
        'OpenRouter',
        'xAI',
      ])
      expect(models.models.length).toBe(Object.values(models.models_by_provider).flat().length)
      expect(requests).toBe(1)
    })

    it("Echo's 404 without CORS headers, which a browser hides as a failed fetch: a no-cors request tells it from being offline, and the list answers", async () => {
      const modes: string[] = []
      server.use(
        http.get(route, ({ request }) => {
          // The mode as Echo sees it, in Sec-Fetch-Mode (msw 3 rebuilds the request from the wire, without its mode).
          const mode = request.headers.get('sec-fetch-mode') ?? request.mode
          modes.push(mode)
          return mode === 'no-cors' ? new HttpResponse('Not Found', { status: 404 }) : HttpResponse.error()
        }),
      )
      await expect(client().models.supported()).resolves.toMatchObject({ source: 'echo-sdk' })
      expect(modes).toEqual(['cors', 'no-cors'])
    })

    it('a tab asks an API host once: the route found missing is remembered, and no later client asks again', async () => {
      // A browser tab's sessionStorage (Node before 25 has none: a server then asks each time).
      if (globalThis.sessionStorage === undefined) vi.stubGlobal('sessionStorage', new PageLifetimeStorage())
      let requests = 0
      server.use(http.get(route, () => ((requests += 1), HttpResponse.json({ message: 'Not Found' }, { status: 404 }))))
      await client().models.supported()
      await expect(client().models.supported()).resolves.toMatchObject({ source: 'echo-sdk' })
      await expect(client().models.supported()).resolves.toMatchObject({ source: 'echo-sdk' })
      expect(requests).toBe(1)
      // Another API host is a question of its own.
      const other = 'https://echo.other.test'
      server.use(
        http.get(`${other}/api/v1/supported-models`, () => ((requests += 1), new HttpResponse(null, { status: 404 }))),
      )
      await new EchoClient({ apiKey: 'key-1', apiUrl: other }).models.supported()
      expect(requests).toBe(2)
    })

    it("Echo's own API, which has no such route, is never asked: no request known to fail leaves", async () => {
      const asked: string[] = []
      server.use(http.all(/supported-models/, ({ request }) => (asked.push(request.url), HttpResponse.error())))
      await expect(new EchoClient({ apiKey: 'key-1' }).models.supported()).resolves.toMatchObject({
        source: 'echo-sdk',
      })
      expect(asked).toEqual([])
    })

    it('offline (nothing answers at all): a NETWORK_ERROR, not a list', async () => {
      server.use(http.get(route, () => HttpResponse.error()))
      await expect(client().models.supported()).rejects.toMatchObject({
        code: 'NETWORK_ERROR',
        message: 'Network error while fetching supported models',
      })
    })

    it('any other failure of the route is its error', async () => {
      server.use(http.get(route, () => HttpResponse.json({ message: 'Unauthorized' }, { status: 401 })))
      await expect(client().models.supported()).rejects.toMatchObject({ code: 'HTTP_401' })
    })
  })

  describe('payment links', () => {
    it('describe the payment as Echo Credits unless told otherwise', async () => {
      const seen = recordCalls({ paymentLink: { url: 'https://pay.test/1' } })
      await client().payments.createPaymentLink({ amount: 5, successUrl: 'https://app.test' })
      expect(seen[0]?.body).toEqual({ amount: 5, description: 'Echo Credits', successUrl: 'https://app.test' })
    })

    it('leave out the success URL when there is no page origin to default it to', async () => {
      const seen = recordCalls({ paymentLink: { url: 'https://pay.test/1' } })
      await client().payments.createPaymentLink({ amount: 1 })
      expect(seen[0]?.body).toEqual({ amount: 1, description: 'Echo Credits' })
    })

    it.each([0, 0.99, -5, Number.NaN, Number.POSITIVE_INFINITY, '10'])(
      'refuse an amount of %s before sending anything',
      async (amount) => {
        const seen = recordCalls()
        await expect(client().payments.createPaymentLink({ amount: amount as number })).rejects.toThrow(
          `The payment amount must be a finite number of US dollars, at least 1 (got ${String(amount)})`,
        )
        expect(seen).toEqual([])
      },
    )
  })

  it('refuses an empty app id before sending anything, as an EchoError like every failure', async () => {
    const seen = recordCalls()
    const error = await client()
      .apps.get('')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EchoError)
    expect((error as EchoError).toJSON()).toEqual({
      code: 'UNKNOWN_ERROR',
      reason: 'bad-argument',
      message: 'apps.get needs id as a non-empty string (got "")',
    })
    await expect(client().payments.createPaymentLink({ amount: 0 })).rejects.toBeInstanceOf(EchoError)
    expect(seen).toEqual([])
  })

  it('an app id is one path segment: "." and ".." are refused, so the token never reaches another path', async () => {
    const seen = recordCalls()
    for (const id of ['.', '..']) {
      await expect(client().apps.get(id)).rejects.toMatchObject({
        name: 'EchoError',
        message: `apps.get needs id as an id, not "${id}"`,
      })
    }
    await client().apps.get('../balance')
    expect(seen.map((call) => call.path)).toEqual(['/api/v1/apps/..%2Fbalance'])
  })

  it('refuses bad arguments as EchoErrors before sending: no request object, no referral code', async () => {
    const seen = recordCalls()
    await expect(client().payments.createPaymentLink(undefined as never)).rejects.toMatchObject({
      name: 'EchoError',
      message: 'The payment amount must be a finite number of US dollars, at least 1 (got undefined)',
    })
    await expect(client().users.registerReferral(undefined as never)).rejects.toMatchObject({
      name: 'EchoError',
      message: 'users.registerReferral needs echoAppId as a non-empty string (got undefined)',
    })
    await expect(client().balance.getFree(null as never)).rejects.toBeInstanceOf(EchoError)
    expect(seen).toEqual([])
  })

  it.each([{}, { paymentLink: null }, { paymentLink: { url: 42 } }, null])(
    'a payment-link answer without a link URL (%j) is an EchoError, not a TypeError later',
    async (answer) => {
      server.use(http.post(`${API}/api/v1/stripe/payment-link`, () => HttpResponse.json(answer)))
      await expect(client().payments.createPaymentLink({ amount: 10 })).rejects.toMatchObject({
        name: 'EchoError',
        code: 'UNKNOWN_ERROR',
        message: 'Echo answered without a payment link URL (paymentLink.url) while creating payment link',
        endpoint: '/api/v1/stripe/payment-link',
      })
    },
  )

  describe('errors', () => {
    it("a non-OK answer is HTTP_<status> with the body text as message, the status and the endpoint kept, and Echo's sentence for the user", async () => {
      server.use(
        http.get(`${API}/api/v1/balance`, () =>
          HttpResponse.json({ message: 'Stripe is not configured for this environment' }, { status: 500 }),
        ),
      )
      const error = await client()
        .balance.get()
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(EchoError)
      expect((error as EchoError).toJSON()).toEqual({
        code: 'HTTP_500',
        reason: 'http',
        message: '{"message":"Stripe is not configured for this environment"} while fetching balance',
        statusCode: 500,
        endpoint: '/api/v1/balance',
        action: 'fetching balance',
        userMessage: 'Stripe is not configured for this environment while fetching balance',
      })
      expect((error as EchoError).userMessage).toBe(
        'Stripe is not configured for this environment while fetching balance',
      )
      expect(EchoError.fromJSON((error as EchoError).toJSON()).userMessage).toBe(
        'Stripe is not configured for this environment while fetching balance',
      )
    })

    it.each([
      [
        "Echo's router, an unknown model: {error}",
        JSON.stringify({ error: 'Invalid model: nope-1 Echo does not yet support this model.' }),
        'Invalid model: nope-1 Echo does not yet support this model.',
      ],
      [
        "an upstream model's error passed on: {error: {error: {message}}}",
        JSON.stringify({ error: { error: { message: 'Rate limit reached' } } }),
        'Rate limit reached',
      ],
      [
        'a token error: {error, error_description}',
        JSON.stringify({ error: 'invalid_request', error_description: 'Refresh token not found' }),
        'Refresh token not found',
      ],
      [
        "Express's page: <pre>Unauthorized</pre>",
        '<!DOCTYPE html><html><body><pre>Unauthorized</pre></body></html>',
        'Unauthorized',
      ],
      ['short plain text', 'Service temporarily down', 'Service temporarily down'],
    ])('the sentence a user reads, from %s', async (_what, body, sentence) => {
      server.use(http.get(`${API}/api/v1/balance`, () => new HttpResponse(body, { status: 503 })))
      const error = (await client()
        .balance.get()
        .catch((e: unknown) => e)) as EchoError
      expect(error.message).toBe(`${body} while fetching balance`)
      expect(error.userMessage).toBe(`${sentence} while fetching balance`)
    })

    it('an answer that holds no sentence (a long page) leaves the message as the sentence', async () => {
      const page = `<html><body>${'<p>lots of markup</p>'.repeat(100)}</body></html>`
      server.use(http.get(`${API}/api/v1/balance`, () => new HttpResponse(page, { status: 502 })))
      const error = (await client()
        .balance.get()
        .catch((e: unknown) => e)) as EchoError
      expect(error.userMessage).toBe(error.message)
      expect(error.toJSON()).not.toHaveProperty('userMessage')
    })

    it('a non-OK answer with an empty body says its status instead', async () => {
      server.use(
        http.get(
          `${API}/api/v1/user`,
          () => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' }),
        ),
      )
      await expect(client().users.get()).rejects.toMatchObject({
        code: 'HTTP_503',
        message: 'HTTP 503 Service Unavailable while fetching user',
      })
    })

    it('a 401 with an API key is final: HTTP_401, nothing refreshed or retried', async () => {
      let calls = 0
      server.use(
        http.get(`${API}/api/v1/balance`, () => {
          calls += 1
          return HttpResponse.json({ message: 'Unauthorized' }, { status: 401 })
        }),
      )
      await expect(client().balance.get()).rejects.toMatchObject({ code: 'HTTP_401', statusCode: 401 })
      expect(calls).toBe(1)
    })

    it('a request that gets no answer is NETWORK_ERROR', async () => {
      server.use(http.get(`${API}/api/v1/balance`, () => HttpResponse.error()))
      await expect(client().balance.get()).rejects.toMatchObject({
        code: 'NETWORK_ERROR',
        message: 'Network error while fetching balance',
        endpoint: '/api/v1/balance',
      })
    })

    it('an answer that is not JSON is UNKNOWN_ERROR', async () => {
      server.use(http.get(`${API}/api/v1/balance`, () => HttpResponse.text('<html>oops</html>')))
      await expect(client().balance.get()).rejects.toMatchObject({
        code: 'UNKNOWN_ERROR',
        message: 'Echo answered with a body that is not JSON while fetching balance',
      })
    })

    it('a call with no token fails at once with Not authenticated, sending nothing', async () => {
      const seen = recordCalls()
      const signedOut = new EchoClient({
        apiUrl: API,
        tokenProvider: { getAccessToken: () => Promise.resolve(null), refreshToken: () => Promise.resolve() },
      })
      await expect(signedOut.balance.get()).rejects.toMatchObject({
        message: 'Not authenticated while fetching balance',
      })
      expect(seen).toEqual([])
    })

    it.each([
      ['an Error', new Error('left the page')],
      ['a string', 'left the page'],
      ['a timeout', new DOMException('The operation timed out.', 'TimeoutError')],
    ])('a call aborted with %s as its reason is still an abort, not a network error', async (_kind, reason) => {
      server.use(http.get(`${API}/api/v1/balance`, () => new Promise<never>(() => undefined)))
      const controller = new AbortController()
      const pending = client().balance.get({ signal: controller.signal })
      controller.abort(reason)
      const error = await pending.catch((e: unknown) => e)
      expect(isAbortError(error)).toBe(true)
      expect(error).toMatchObject({
        code: 'UNKNOWN_ERROR',
        message: expect.stringMatching(/ while fetching balance$/) as unknown,
      })
    })

    it('an aborted call rejects with an abort error that isAbortError() tells apart', async () => {
      server.use(http.get(`${API}/api/v1/balance`, () => new Promise<never>(() => undefined)))
      const controller = new AbortController()
      const pending = client().balance.get({ signal: controller.signal })
      controller.abort()
      const error = await pending.catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'UNKNOWN_ERROR', message: 'Request aborted while fetching balance' })
      expect((error as EchoError).cause).toMatchObject({ name: 'AbortError' })
    })
  })
})
