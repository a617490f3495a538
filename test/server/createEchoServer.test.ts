// echo-rtk/server: the user's token verified with Echo and spent at the router, on the
// app's own server; Echo and its router played by msw.
import { inspect } from 'node:util'

import { createOpenAI } from '@ai-sdk/openai'
import { streamText } from 'ai'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { createEchoServer, EchoError, type EchoServerUser } from 'echo-rtk/server'
import { server } from '../support/server'

const API = 'https://echo.test'
const ROUTER = 'https://router.echo.test'
const APP_ID = '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50'

/** A JWT as Echo issues them (unsigned here: Echo, played below, is the one that checks it). */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`
}
const inMinutes = (minutes: number) => Math.floor(Date.now() / 1000) + minutes * 60
const TOKEN = jwt({
  sub: 'user-1',
  user_id: 'user-1',
  app_id: APP_ID,
  aud: APP_ID,
  scope: 'llm:invoke offline_access',
  exp: inMinutes(15),
})

/** Echo's validation route: valid for the tokens in `valid` (to the app given), 401 for any other. Counts its calls. */
function echoValidates(valid: Record<string, string> = { [TOKEN]: APP_ID }) {
  const calls: string[] = []
  server.use(
    http.post(`${API}/api/validate-jwt-token`, ({ request }) => {
      const token = request.headers.get('x-echo-token') ?? ''
      calls.push(token)
      const appId = valid[token]
      return appId === undefined
        ? HttpResponse.json({ valid: false, error: 'Invalid token' }, { status: 401 })
        : HttpResponse.json({ valid: true, userId: 'user-1', appId, scope: 'llm:invoke offline_access' })
    }),
  )
  return calls
}

const request = (token: string | null, body: unknown = {}) =>
  new Request('https://app.test/api/chat', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token === null ? {} : { Authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  })

const echo = () => createEchoServer({ appId: APP_ID, apiUrl: API, baseRouterUrl: ROUTER })

afterEach(() => {
  vi.useRealTimers()
})

describe('echo.userFrom(request)', () => {
  it('a valid token: the user, verified once with Echo for many calls (the verdict is kept)', async () => {
    const calls = echoValidates()
    const server = echo()
    const users = await Promise.all(Array.from({ length: 20 }, () => server.userFrom(request(TOKEN))))
    await server.userFrom(request(TOKEN))
    expect(users[0]).toMatchObject({ id: 'user-1', appId: APP_ID, scope: 'llm:invoke offline_access', token: TOKEN })
    expect(calls).toEqual([TOKEN])
  })

  it.each([
    ['no Authorization header', null, 'The request carries no Echo token'],
    ['a token that is no JWT', 'not-a-jwt', 'The Echo token is not a JWT'],
    ['an expired token', jwt({ sub: 'user-1', exp: inMinutes(-1) }), 'The Echo token has expired'],
  ])('%s: rejected HTTP_401 before Echo is asked', async (_case, token, message) => {
    const calls = echoValidates()
    await expect(echo().userFrom(request(token))).rejects.toMatchObject({
      code: 'HTTP_401',
      statusCode: 401,
      message: expect.stringContaining(message) as string,
    })
    expect(calls).toEqual([])
  })

  it("a token Echo refuses: HTTP_401, in Echo's words", async () => {
    echoValidates({})
    await expect(echo().userFrom(request(TOKEN))).rejects.toMatchObject({
      code: 'HTTP_401',
      message: 'Echo refused the token: Invalid token',
    })
  })

  it('a token issued to another app: HTTP_401, naming both apps', async () => {
    echoValidates({ [TOKEN]: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53' })
    await expect(echo().userFrom(request(TOKEN))).rejects.toMatchObject({
      code: 'HTTP_401',
      message:
        "The Echo token was issued to app 2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53, not to this server's app 2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50",
    })
  })

  it.each([
    ['down', () => HttpResponse.error()],
    ['answering 503', () => HttpResponse.json({ error: 'Service Unavailable' }, { status: 503 })],
    ['answering a page that is not its', () => new HttpResponse('<html>proxy</html>', { status: 200 })],
  ])("Echo's validation route %s: a clear error, never a pass, and asked again next time", async (_case, answer) => {
    let calls = 0
    server.use(
      http.post(`${API}/api/validate-jwt-token`, () => {
        calls += 1
        return answer()
      }),
    )
    const server2 = echo()
    for (const _ of [1, 2]) {
      await expect(server2.userFrom(request(TOKEN))).rejects.toMatchObject({
        reason: 'echo-unreachable',
        message: "Echo could not be reached to check the user's token; try again",
      })
    }
    expect(calls).toBe(2)
  })

  it('reads a Node IncomingMessage (Express) for its headers', async () => {
    echoValidates()
    const incoming = { headers: { authorization: `Bearer ${TOKEN}`, host: 'app.test' } }
    await expect(echo().userFrom(incoming)).resolves.toMatchObject({ id: 'user-1' })
  })

  it('keeps a verdict no longer than the token lives, and at most 5 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const shortLived = jwt({ sub: 'user-1', exp: inMinutes(2) })
    const calls = echoValidates({ [TOKEN]: APP_ID, [shortLived]: APP_ID })
    const server = echo()
    await server.userFrom(request(TOKEN))
    await server.userFrom(request(shortLived))
    vi.setSystemTime(Date.now() + 4 * 60_000)
    await server.userFrom(request(TOKEN)) // kept: 4 minutes
    await expect(server.userFrom(request(shortLived))).rejects.toMatchObject({ message: 'The Echo token has expired' })
    vi.setSystemTime(Date.now() + 2 * 60_000)
    await server.userFrom(request(TOKEN)) // 6 minutes: asked again
    expect(calls).toEqual([TOKEN, shortLived, TOKEN])
  })

  it("the user's fetch sends the token to Echo's API and router only, and never refreshes", async () => {
    echoValidates()
    const user = await echo().userFrom(request(TOKEN))
    let routerCalls = 0
    server.use(
      http.post(`${ROUTER}/chat/completions`, ({ request }) => {
        routerCalls += 1
        return request.headers.get('authorization') === `Bearer ${TOKEN}`
          ? HttpResponse.json({ ok: true })
          : HttpResponse.json({}, { status: 401 })
      }),
    )
    expect(
      (await user.fetch(`${ROUTER}/chat/completions`, { method: 'POST', headers: { 'x-api-key': 'sk-app' } })).status,
    ).toBe(200)
    await expect(user.fetch('https://api.openai.com/v1/chat/completions', { method: 'POST' })).rejects.toThrow(
      /^Refusing to send the user's Echo token to https:\/\/api\.openai\.com/,
    )
    server.use(http.post(`${ROUTER}/chat/completions`, () => HttpResponse.json({ error: 'expired' }, { status: 401 })))
    expect((await user.fetch(`${ROUTER}/chat/completions`, { method: 'POST' })).status).toBe(401)
    expect(routerCalls).toBe(1)
  })

  it('user.client and user.router speak as the user', async () => {
    echoValidates()
    server.use(
      http.get(`${API}/api/v1/balance`, ({ request }) =>
        HttpResponse.json({
          totalPaid: 5,
          totalSpent: 0,
          balance: request.headers.get('authorization') === `Bearer ${TOKEN}` ? 5 : 0,
          currency: 'USD',
        }),
      ),
      http.post(`${ROUTER}/chat/completions`, () =>
        HttpResponse.json({
          id: 'c1',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
        }),
      ),
    )
    const user = await echo().userFrom(request(TOKEN))
    expect((await user.client.balance.get()).balance).toBe(5)
    const answer = await user.router.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(answer.choices[0]?.message.content).toBe('Hi')
  })
})

describe('echo.route(handler)', () => {
  /** The router's chat completions, answering `status` (200: a short stream of two chunks). */
  function routerAnswers(status: number) {
    server.use(
      http.post(`${ROUTER}/chat/completions`, () => {
        if (status !== 200)
          return status === 402
            ? new HttpResponse('<html>Payment Required</html>', { status })
            : HttpResponse.json({ error: 'Unauthorized' }, { status })
        const encoder = new TextEncoder()
        const chunk = (content: string) =>
          `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
        return new HttpResponse(
          new ReadableStream({
            start(controller) {
              for (const piece of [chunk('Hello'), chunk(' there'), 'data: [DONE]\n\n'])
                controller.enqueue(encoder.encode(piece))
              controller.close()
            },
          }),
        )
      }),
    )
  }
  /** A Next.js-style chat route: streamText through the user's provider, answered as the AI SDK's UI message stream. */
  const chatRoute = () =>
    echo().route((_request, user: EchoServerUser) => {
      const openai = user.modelProvider(createOpenAI)
      const result = streamText({ model: openai.chat('gpt-4o-mini'), prompt: 'Hi', onError: () => undefined })
      return result.toUIMessageStreamResponse()
    })

  beforeEach(() => {
    echoValidates()
  })

  it('streams the answer through, in order, once the first model answer is in', async () => {
    routerAnswers(200)
    const response = await chatRoute()(request(TOKEN), undefined)
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text.indexOf('Hello')).toBeGreaterThan(-1)
    expect(text.indexOf(' there')).toBeGreaterThan(text.indexOf('Hello'))
  })

  it('a streamed answer whose model call was refused 402 is answered 402 (not a 200 with an error part), saying why in a header', async () => {
    routerAnswers(402)
    const response = await chatRoute()(request(TOKEN), undefined)
    expect(response.status).toBe(402)
    expect(response.headers.get('x-echo-reason')).toBe('insufficient-funds')
    expect(await response.text()).toBe('You are out of Echo credits. Add credits to keep going.')
  })

  it('a streamed answer whose token the router refused is answered 401 with invalid_token: the browser refreshes once and retries', async () => {
    routerAnswers(401)
    const response = await chatRoute()(request(TOKEN), undefined)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="echo", error="invalid_token"')
  })

  it.each([
    [402, 402, 'insufficient-funds'],
    [401, 401, null],
  ])('a JSON route whose router call was refused %i is answered %i', async (routerStatus, status, reason) => {
    routerAnswers(routerStatus)
    const route = echo().route(async (_request, user) => {
      const answer = await user.router.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Hi' }],
      })
      return Response.json(answer)
    })
    const response = await route(request(TOKEN), undefined)
    expect(response.status).toBe(status)
    expect(response.headers.get('x-echo-reason')).toBe(reason)
  })

  it("no token, a bad token, another app's token: 401 before the handler runs; only a refreshable refusal asks for a refresh", async () => {
    echoValidates({ [TOKEN]: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53' })
    const handler = vi.fn(() => Response.json({}))
    const route = echo().route(handler)
    const missing = await route(request(null), undefined)
    const otherApp = await route(request(TOKEN), undefined)
    const expired = await route(request(jwt({ sub: 'u', exp: inMinutes(-1) })), undefined)
    expect([missing.status, otherApp.status, expired.status]).toEqual([401, 401, 401])
    expect([missing, otherApp, expired].map((response) => response.headers.get('www-authenticate'))).toEqual([
      'Bearer realm="echo"',
      'Bearer realm="echo"',
      'Bearer realm="echo", error="invalid_token"',
    ])
    expect(handler).not.toHaveBeenCalled()
  })

  it("Echo's validation route down: 503, never 401 (a 401 would make every browser rotate its refresh token for nothing)", async () => {
    server.use(http.post(`${API}/api/validate-jwt-token`, () => HttpResponse.error()))
    const response = await echo().route(() => Response.json({}))(request(TOKEN), undefined)
    expect(response.status).toBe(503)
    expect(await response.text()).toBe('Echo could not be reached to check your session. Try again in a moment.')
  })

  it("passes the framework's second argument on (Next.js { params }), and answers what the handler answers", async () => {
    const route = echo().route<{ params: Promise<{ id: string }> }>(async (_request, user, { params }) =>
      Response.json({ id: (await params).id, user: user.id }),
    )
    const response = await route(request(TOKEN), { params: Promise.resolve({ id: 'chat-7' }) })
    expect(await response.json()).toEqual({ id: 'chat-7', user: 'user-1' })
  })

  it('a handler that makes no model call answers at once, whole', async () => {
    const response = await echo().route(() => new Response(new Blob(['plain answer'])))(request(TOKEN), undefined)
    expect([response.status, await response.text()]).toEqual([200, 'plain answer'])
  })

  it('puts the token in no error, body or log', async () => {
    const logs = [
      vi.spyOn(console, 'error').mockImplementation(() => undefined),
      vi.spyOn(console, 'warn').mockImplementation(() => undefined),
      vi.spyOn(console, 'log'),
    ]
    routerAnswers(402)
    const answers = [await chatRoute()(request(TOKEN), undefined)]
    echoValidates({})
    answers.push(await echo().route(() => Response.json({}))(request(TOKEN), undefined))
    const failure = await echo()
      .userFrom(request(TOKEN))
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(EchoError)
    const seen = [
      inspect(failure, { depth: 8 }),
      JSON.stringify(failure),
      ...(await Promise.all(answers.map((answer) => answer.text()))),
      inspect(
        logs.map((log) => log.mock.calls),
        { depth: 8 },
      ),
    ]
    for (const text of seen) expect(text).not.toContain(TOKEN)
  })
})

describe('createEchoServer', () => {
  it('refuses a missing appId, one that is no Echo app id, and URLs that are not absolute http(s), naming them', () => {
    expect(() => createEchoServer({} as never)).toThrow(
      "createEchoServer's appId is required: pass your app's id from the Echo dashboard (got undefined)",
    )
    expect(() => createEchoServer({ appId: 'my-echo-app' })).toThrow(
      `createEchoServer's appId must be your app's id from the Echo dashboard, a UUID such as 60601628-cdb7-481e-8f7e-921981220348 (got "my-echo-app")`,
    )
    expect(() => createEchoServer({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f56', apiUrl: 'echo.test' })).toThrow(
      'EchoConfig.apiUrl must be an absolute http(s) URL, got "echo.test"',
    )
  })
})
