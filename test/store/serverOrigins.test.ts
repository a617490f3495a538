// @vitest-environment jsdom
// The session's fetch to the app's own server: the token goes there only when
// serverOrigins lists it, and the session's rules hold across the hop.
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { getEchoFetch, type EchoConfig, type EchoStore } from 'echo-rtk'
import { CONFIG, echoStoresPerTest } from '../support/echoStores'
import { server } from '../support/server'
import { APP_URL, refreshGrants, sentTo, serveEcho } from '../support/testEcho'

const { signInThroughEcho } = echoStoresPerTest()
const WITH_SERVER: EchoConfig = { ...CONFIG, serverOrigins: ['self'] }
const REFUSED_TOKEN = { 'WWW-Authenticate': 'Bearer realm="echo", error="invalid_token"' }

afterEach(() => {
  vi.useRealTimers()
})

/** The app's own route at `url`, answering `answer`; records the Authorization and X-Retry of each request. */
function appRoute(url: string, answer: (authorization: string) => Response | Promise<Response>) {
  const seen: { authorization: string | null; retry: string | null }[] = []
  server.use(
    http.post(url, ({ request }) => {
      const authorization = request.headers.get('authorization')
      seen.push({ authorization, retry: request.headers.get('x-retry') })
      return answer(authorization ?? '')
    }),
  )
  return seen
}

async function signedIn(config: EchoConfig = WITH_SERVER, expiresInSeconds = 900) {
  const echo = serveEcho({ expiresInSeconds })
  const store = await signInThroughEcho({}, config)
  return { echo, store, fetch: store.dispatch(getEchoFetch()) }
}

const outOfCredits = (store: EchoStore) => store.getState().echo.balance.isInsufficientFunds

describe("the session's fetch to the app's own server (serverOrigins)", () => {
  it("sends the token to exactly what serverOrigins lists ('self': the page's origin), a relative URL too, and nowhere else", async () => {
    const { fetch } = await signedIn()
    const seen = appRoute(`${APP_URL}/api/chat`, () => HttpResponse.json({ ok: true }))
    expect((await fetch('/api/chat', { method: 'POST', body: '{}' })).status).toBe(200)
    expect((await fetch(`${APP_URL}/api/chat`, { method: 'POST', body: '{}' })).status).toBe(200)
    expect(seen.map((request) => request.authorization)).toEqual(['Bearer test-access-1', 'Bearer test-access-1'])
    for (const elsewhere of ['http://localhost:4000/api/chat', 'https://api.openai.com/v1/chat/completions']) {
      await expect(fetch(elsewhere, { method: 'POST' })).rejects.toThrow(/^Refusing to send the user's Echo token to /)
    }
    expect(seen).toHaveLength(2)
  })

  it('without serverOrigins the same request is refused, and nothing is sent', async () => {
    const { fetch } = await signedIn(CONFIG)
    const seen = appRoute(`${APP_URL}/api/chat`, () => HttpResponse.json({ ok: true }))
    await expect(fetch('/api/chat', { method: 'POST', body: '{}' })).rejects.toThrow(
      `Refusing to send the user's Echo token to ${APP_URL}: it goes only to https://echo.test and https://echo.router.merit.systems`,
    )
    expect(seen).toEqual([])
  })

  it('a 401 from the route saying the token was refused is refreshed once and retried once, marked, across many concurrent calls', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { echo, fetch } = await signedIn(WITH_SERVER, 15)
    vi.setSystemTime(Date.now() + 16_000) // the token the route checks has expired
    const seen = appRoute(`${APP_URL}/api/chat`, (authorization) =>
      authorization === 'Bearer test-access-2'
        ? HttpResponse.json({ answer: 'hello' })
        : new HttpResponse('Your Echo session has expired.', { status: 401, headers: REFUSED_TOKEN }),
    )
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch('/api/chat', { method: 'POST', body: '{}' }).then((response) => response.status),
      ),
    )
    expect(statuses).toEqual(Array<number>(20).fill(200))
    expect(refreshGrants(echo)).toHaveLength(1)
    expect(seen.filter((request) => request.retry === 'true')).toHaveLength(20)
    expect(seen.filter((request) => request.authorization === 'Bearer test-access-1')).toHaveLength(20)
    expect(
      seen.filter((request) => request.retry === 'true' && request.authorization !== 'Bearer test-access-2'),
    ).toEqual([])
  })

  it("the app's own 401 (its own sign-in: no invalid_token) is left alone: no refresh, no retry", async () => {
    const { echo, fetch } = await signedIn()
    const seen = appRoute(
      `${APP_URL}/api/chat`,
      () =>
        new HttpResponse('Log in to the app first', {
          status: 401,
          headers: { 'WWW-Authenticate': 'Basic realm="app"' },
        }),
    )
    const response = await fetch('/api/chat', { method: 'POST', body: '{}' })
    expect([response.status, await response.text()]).toEqual([401, 'Log in to the app first'])
    expect(seen).toHaveLength(1)
    expect(refreshGrants(echo)).toHaveLength(0)
  })

  it("a 402 from the route that says so marks the user out of credits; the app's own paywall (a bare 402) does not", async () => {
    const { store, fetch } = await signedIn()
    appRoute(`${APP_URL}/api/paywall`, () => new HttpResponse('Upgrade to Pro', { status: 402 }))
    expect((await fetch('/api/paywall', { method: 'POST' })).status).toBe(402)
    expect(outOfCredits(store)).toBe(false)
    appRoute(
      `${APP_URL}/api/chat`,
      () =>
        new HttpResponse('You are out of Echo credits.', {
          status: 402,
          headers: { 'X-Echo-Reason': 'insufficient-funds' },
        }),
    )
    expect((await fetch('/api/chat', { method: 'POST' })).status).toBe(402)
    expect(outOfCredits(store)).toBe(true)
  })

  it("the balance is refetched once the route's streamed answer has ended", async () => {
    const { echo, fetch } = await signedIn()
    const encoder = new TextEncoder()
    appRoute(
      `${APP_URL}/api/chat`,
      () =>
        new HttpResponse(
          new ReadableStream({
            start(controller) {
              controller.enqueue(encoder.encode('data: {"type":"text-delta","delta":"Hi"}\n\n'))
              controller.close()
            },
          }),
          { headers: { 'Content-Type': 'text/event-stream' } },
        ),
    )
    const before = sentTo(echo, '/api/v1/balance').length
    const response = await fetch('/api/chat', { method: 'POST', body: '{}' })
    await response.text()
    await vi.waitFor(() => expect(sentTo(echo, '/api/v1/balance').length).toBeGreaterThan(before))
  })
})
