// The server-held session (createEchoServer({ session }) and echo.handler) against the local Echo:
// sign-in with PKCE on the server, the sealed HttpOnly cookie, the proxies, the refresh, Echo's
// refusal, and requests from other sites. The browser is a cookie jar here; test/e2e has Chromium.
import { http, HttpResponse } from 'msw'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { createEchoServer, type EchoServer } from 'echo-rtk/server'
import { startDevServer, type RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { CookieJar, follow, letLoopbackThrough, signIn as devSignIn } from '../dev-server/devServerClient'
import { server } from '../support/server'

const APP = 'http://127.0.0.1:3000'
const SECRET = 'a-test-secret-of-at-least-thirty-two-characters'
let dev: RunningDevServer

beforeAll(async () => {
  dev = await startDevServer({ port: 0, routerPort: 0, accessTtl: 60, autoLogin: true, streamDelayMs: 1 })
})
afterAll(async () => {
  await dev?.close()
})

const echoServer = (options: Partial<Parameters<typeof createEchoServer>[0]> = {}) =>
  createEchoServer({
    appId: dev.appId,
    apiUrl: dev.apiUrl,
    baseRouterUrl: dev.routerUrl,
    session: { secret: SECRET },
    ...options,
  })

/** The app's page: its cookie jar, and requests to the app's server as its own pages send them. */
class Page {
  readonly jar = new CookieJar()
  readonly setCookies: string[] = []
  constructor(readonly echo: EchoServer) {}

  async call(path: string, init: RequestInit & { site?: string } = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    headers.set('sec-fetch-site', init.site ?? 'same-origin')
    if (init.method !== undefined && init.method !== 'GET' && init.site === undefined) headers.set('origin', APP)
    const cookie = this.jar.header()
    if (cookie) headers.set('cookie', cookie)
    const response = await this.echo.handler(new Request(`${APP}${path}`, { ...init, headers }))
    this.setCookies.push(...response.headers.getSetCookie())
    this.jar.store(response)
    return response
  }

  /** Sign-in as a browser goes through it: the app's signin route, Echo's pages, the app's callback. */
  async signIn(returnTo = '/settings/billing?tab=2#x'): Promise<Response> {
    const leave = await this.call(`/api/echo/signin?returnTo=${encodeURIComponent(returnTo)}`)
    expect(leave.status).toBe(302)
    const back = await follow(new CookieJar(), leave.headers.get('location')!, `${APP}/api/echo/callback`)
    if (!(back instanceof URL)) throw new Error(`sign-in ended on a page: ${back.status}`)
    return this.call(`${back.pathname}${back.search}`)
  }
}

const letThrough = () => letLoopbackThrough()

describe('sign-in on the server', () => {
  it('signs in with PKCE, exchanges the code once, and comes back to the page it left, signed in', async () => {
    letThrough()
    const page = new Page(echoServer())
    const back = await page.signIn()
    expect(back.status).toBe(302)
    expect(back.headers.get('location')).toBe('/settings/billing?tab=2#x')
    const session = await page.call('/api/echo/session')
    expect(await session.json()).toMatchObject({
      user: { id: expect.any(String) as string, email: dev.testUser.email },
      checkedAt: expect.any(Number) as number,
    })
  })

  it('the session cookie is HttpOnly, SameSite=Lax, Path=/, and carries no token in the clear', async () => {
    letThrough()
    const page = new Page(echoServer())
    await page.signIn()
    const cookie = page.setCookies.find((line) => line.startsWith(`echo_rtk_${dev.appId}=`))!
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Lax/)
    expect(cookie).toMatch(/; Path=\//)
    // Plain http on a loopback host: no Secure (a browser would drop it there).
    expect(cookie).not.toMatch(/Secure/)
    const value = cookie.split(';')[0]!.split('=')[1]!
    expect(value).toMatch(/^e1\./)
    const { accessTokens, refreshTokens } = dev.secretsSeen
    expect(accessTokens.size + refreshTokens.size).toBeGreaterThan(1)
    for (const token of [...accessTokens, ...refreshTokens]) expect(value).not.toContain(token)
  })

  it('over https the cookie is Secure', async () => {
    letThrough()
    const echo = echoServer({ appOrigin: 'https://app.example.com' })
    const leave = await echo.handler(new Request('https://app.example.com/api/echo/signin'))
    expect(leave.headers.getSetCookie()[0]).toMatch(/; Secure/)
  })

  it('refuses a returnTo that leads to another site', async () => {
    const echo = echoServer()
    for (const returnTo of ['//evil.example', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const answer = await echo.handler(new Request(`${APP}/api/echo/signin?returnTo=${encodeURIComponent(returnTo)}`))
      expect(answer.status).toBe(400)
      expect(await answer.text()).toContain('returnTo must be a path of this app')
    }
  })
})

describe('a short or missing secret', () => {
  it('a secret under 32 characters fails at start-up, saying what to set', () => {
    expect(() => echoServer({ session: { secret: 'short' } })).toThrow(
      "createEchoServer's session.secret must be at least 32 characters (got 5)",
    )
  })

  it('a missing one fails each request with a 500 and a log line naming the variable, so a build still builds', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const echo = echoServer({ session: { secret: undefined } })
    const answer = await echo.handler(new Request(`${APP}/api/echo/session`))
    expect(answer.status).toBe(500)
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('ECHO_SESSION_SECRET'))
  })
})

/** A fetch for the server that records what it sends to Echo, then sends it. */
function recordingFetch() {
  const sent: { method: string; url: string; authorization: string | null; retry: string | null }[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    sent.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.get('authorization'),
      retry: request.headers.get('x-retry'),
    })
    return globalThis.fetch(input, init)
  }
  return { sent, fetch }
}

const chat = (content = 'Hello') =>
  JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], stream: true })

describe("the page's calls, through the server", () => {
  it("Echo's API and the router, streamed, as the user: the token added here, nothing of the page's passed on", async () => {
    letThrough()
    const { sent, fetch } = recordingFetch()
    const page = new Page(echoServer({ fetch }))
    await page.signIn()
    const balance = await page.call('/api/echo/api/v1/balance')
    expect(balance.status).toBe(200)
    expect(await balance.json()).toMatchObject({ balance: expect.any(Number) as number, currency: 'USD' })
    const answer = await page.call('/api/echo/router/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-api-key': 'sk-left-by-a-client' },
      body: chat(),
    })
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain('data: ')
    const toEcho = sent.filter(({ url }) => url.includes('/balance') || url.includes('/chat/completions'))
    expect(toEcho.map(({ authorization }) => authorization?.startsWith('Bearer ey'))).toEqual([true, true])
  })

  it("refuses paths that are not Echo's eight calls", async () => {
    letThrough()
    const page = new Page(echoServer())
    await page.signIn()
    expect((await page.call('/api/echo/api/v1/keys')).status).toBe(404)
    expect((await page.call('/api/echo/api/v1/balance', { method: 'POST' })).status).toBe(404)
  })

  it('signed out: 401 not-signed-in, and nothing reaches Echo', async () => {
    const { sent, fetch } = recordingFetch()
    const page = new Page(echoServer({ fetch }))
    const answer = await page.call('/api/echo/router/chat/completions', { method: 'POST', body: chat() })
    expect([answer.status, answer.headers.get('x-echo-reason')]).toEqual([401, 'not-signed-in'])
    expect(await (await page.call('/api/echo/session')).json()).toEqual({ user: null })
    expect(sent).toEqual([])
  })

  it('sign-out clears the cookie: the next call finds nobody signed in', async () => {
    letThrough()
    const page = new Page(echoServer())
    await page.signIn()
    const out = await page.call('/api/echo/signout', { method: 'POST' })
    expect(out.status).toBe(200)
    expect(out.headers.getSetCookie().join()).toMatch(new RegExp(`echo_rtk_${dev.appId}=; Max-Age=0`))
    expect(await (await page.call('/api/echo/session')).json()).toEqual({ user: null })
  })
})

describe('requests from other sites', () => {
  it.each([
    ['Sec-Fetch-Site: cross-site', { site: 'cross-site' }],
    ['Sec-Fetch-Site: same-site (another port of the host)', { site: 'same-site' }],
    ['an Origin that is not the app', { site: 'same-origin', headers: { origin: 'http://127.0.0.1:4000' } }],
  ])('%s with the cookie: 403 before anything reaches Echo', async (_case, from) => {
    letThrough()
    const { sent, fetch } = recordingFetch()
    const page = new Page(echoServer({ fetch }))
    await page.signIn()
    const before = sent.length
    for (const path of [
      '/api/echo/router/chat/completions',
      '/api/echo/api/v1/stripe/payment-link',
      '/api/echo/signout',
    ]) {
      const answer = await page.call(path, { method: 'POST', body: chat(), ...from })
      expect([answer.status, answer.headers.get('x-echo-reason')]).toEqual([403, 'cross-site'])
    }
    expect((await page.call('/api/echo/api/v1/balance', from)).status).toBe(403)
    expect(sent.length).toBe(before)
    // Still signed in: the refusal changed nothing.
    expect(await (await page.call('/api/echo/session')).json()).toMatchObject({ user: { email: dev.testUser.email } })
  })
})

describe('the refresh, on the server', () => {
  /** The server's clock moved past the access token's life (60 s here). */
  const later = (seconds: number) => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + seconds * 1000 })
  }
  afterEach(() => vi.useRealTimers())

  const refreshes = (sent: ReturnType<typeof recordingFetch>['sent']) =>
    sent.filter(({ url }) => url.endsWith('/api/oauth/token'))

  it('an expired access token is renewed before the call, once, and the rotated cookie set on that answer', async () => {
    letThrough()
    const { sent, fetch } = recordingFetch()
    const page = new Page(echoServer({ fetch }))
    await page.signIn()
    const cookieBefore = page.jar.header()
    later(61)
    const answers = await Promise.all([1, 2, 3].map(() => page.call('/api/echo/api/v1/balance')))
    expect(answers.map(({ status }) => status)).toEqual([200, 200, 200])
    // The three calls carried the same cookie: one refresh between them.
    expect(refreshes(sent).length - 1).toBe(1)
    expect(answers[0]!.headers.getSetCookie().join()).toMatch(new RegExp(`echo_rtk_${dev.appId}=e1\\.`))
    expect(page.jar.header()).not.toBe(cookieBefore)
    expect((await page.call('/api/echo/api/v1/balance')).status).toBe(200)
    expect(refreshes(sent).length - 1).toBe(1)
  })

  it('a 401 from Echo to an unexpired token: one refresh and one retry marked X-Retry, never more', async () => {
    letThrough()
    const { sent, fetch } = recordingFetch()
    let refusedOnce = false
    const refusingOnce = async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!refusedOnce && new Request(input, init).url.endsWith('/balance')) {
        refusedOnce = true
        return new Response('{"message":"Unauthorized"}', { status: 401 })
      }
      return fetch(input, init)
    }
    const page = new Page(echoServer({ fetch: refusingOnce }))
    await page.signIn()
    const answer = await page.call('/api/echo/api/v1/balance')
    expect(answer.status).toBe(200)
    const balances = sent.filter(({ url }) => url.endsWith('/balance'))
    expect(balances.map(({ retry }) => retry)).toEqual(['true'])
    expect(refreshes(sent).length - 1).toBe(1)
  })

  it('Echo refusing the refresh ends the session: the cookie cleared, X-Echo-Reason session-ended, and GET session says so', async () => {
    letThrough()
    const page = new Page(echoServer())
    await page.signIn()
    server.use(
      http.post(`${dev.apiUrl}/api/oauth/token`, () =>
        HttpResponse.json({ error: 'invalid_request', error_description: 'Refresh token revoked' }, { status: 400 }),
      ),
    )
    later(61)
    const answer = await page.call('/api/echo/router/chat/completions', { method: 'POST', body: chat() })
    expect([answer.status, answer.headers.get('x-echo-reason')]).toEqual([401, 'session-ended'])
    expect(await answer.text()).toBe('Your session has ended. Sign in again.')
    expect(answer.headers.getSetCookie().join()).toMatch(new RegExp(`echo_rtk_${dev.appId}=; Max-Age=0`))
    expect(await (await page.call('/api/echo/session')).json()).toEqual({ user: null })
  })

  it('GET session on the answer that ends it says session-ended', async () => {
    letThrough()
    const page = new Page(echoServer())
    await page.signIn()
    server.use(
      http.post(`${dev.apiUrl}/api/oauth/token`, () =>
        HttpResponse.json({ error: 'invalid_request' }, { status: 400 }),
      ),
    )
    later(61)
    const answer = await page.call('/api/echo/session')
    expect(await answer.json()).toEqual({ user: null, reason: 'session-ended' })
    expect(answer.headers.get('x-echo-reason')).toBe('session-ended')
  })

  it('Echo out of reach for the refresh: 503, the user still signed in, the cookie untouched; back, the call works', async () => {
    letThrough()
    const page = new Page(echoServer())
    await page.signIn()
    const cookie = page.jar.header()
    server.use(http.post(`${dev.apiUrl}/api/oauth/token`, () => HttpResponse.error(), { once: true }))
    later(61)
    const answer = await page.call('/api/echo/router/chat/completions', { method: 'POST', body: chat() })
    expect([answer.status, answer.headers.get('x-echo-reason')]).toEqual([503, 'echo-unreachable'])
    expect(answer.headers.getSetCookie()).toEqual([])
    expect(page.jar.header()).toBe(cookie)
    const session = await page.call('/api/echo/session')
    expect(await session.json()).toMatchObject({ user: { email: dev.testUser.email } })
    expect((await page.call('/api/echo/api/v1/balance')).status).toBe(200)
  })
})

describe("coming from Echo's Next.js SDK", () => {
  it("its cookies are taken over once: still signed in, Echo's cookies removed, echo-rtk's set", async () => {
    letThrough()
    const tokens = await devSignIn(dev)
    const page = new Page(echoServer())
    const expires = Math.floor(Date.now() / 1000) + tokens.refresh_token_expires_in
    page.jar.store(
      new Response(null, {
        headers: [
          ['set-cookie', `echo_access_token_${dev.appId}=${tokens.access_token}`],
          ['set-cookie', `echo_refresh_token_${dev.appId}=${tokens.refresh_token}`],
          ['set-cookie', `echo_refresh_token_expires_${dev.appId}=${expires}`],
          ['set-cookie', `echo_user_info_${dev.appId}=${encodeURIComponent(JSON.stringify(tokens.user))}`],
        ],
      }),
    )
    const session = await page.call('/api/echo/session')
    expect(await session.json()).toMatchObject({ user: { id: tokens.user.id, email: tokens.user.email } })
    const set = session.headers.getSetCookie().join('\n')
    expect(set).toMatch(new RegExp(`echo_rtk_${dev.appId}=e1\\.`))
    for (const name of ['echo_access_token', 'echo_refresh_token', 'echo_refresh_token_expires', 'echo_user_info'])
      expect(set).toMatch(new RegExp(`${name}_${dev.appId}=; Max-Age=0`))
    expect(page.jar.header()).not.toContain('echo_refresh_token_')
    expect((await page.call('/api/echo/api/v1/balance')).status).toBe(200)
  })
})

describe('echo.route and echo.userFrom on the cookie', () => {
  it("a route of the app's own runs for the cookie's user, billed to them, with the renewed cookie on its answer", async () => {
    letThrough()
    const echo = echoServer()
    const page = new Page(echo)
    await page.signIn()
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 })
    try {
      const route = echo.route(async (_request, user) => {
        const completion = await user.router.chat.completions.create({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'Hi' }],
        })
        return Response.json({ user: user.id, said: completion.choices[0]?.message.content })
      })
      const answer = await route(
        new Request(`${APP}/api/chat`, { method: 'POST', headers: { cookie: page.jar.header(), origin: APP } }),
        undefined,
      )
      expect(answer.status).toBe(200)
      expect(await answer.json()).toMatchObject({ said: expect.any(String) as string })
      expect(answer.headers.getSetCookie().join()).toMatch(new RegExp(`echo_rtk_${dev.appId}=e1\\.`))
    } finally {
      vi.useRealTimers()
    }
  })

  it('the cookie from another site is refused 403; no cookie at all is 401', async () => {
    letThrough()
    const echo = echoServer()
    const page = new Page(echo)
    await page.signIn()
    const route = echo.route(() => new Response('ran'))
    const crossSite = await route(
      new Request(`${APP}/api/chat`, {
        method: 'POST',
        headers: { cookie: page.jar.header(), 'sec-fetch-site': 'cross-site' },
      }),
      undefined,
    )
    expect(crossSite.status).toBe(403)
    expect((await route(new Request(`${APP}/api/chat`, { method: 'POST' }), undefined)).status).toBe(401)
    await expect(
      echo.userFrom({ headers: { cookie: page.jar.header(), host: '127.0.0.1:3000' } }),
    ).resolves.toMatchObject({ id: expect.any(String) as string })
  })
})
