// The demo's flows in Chromium against Echo's own server code, run locally: Echo's control plane
// (Next.js, Auth.js, Postgres) and its router, in production-like sign-in mode with short access
// tokens. `npm run test:real-echo` sets Echo up and runs this file (scripts/realEcho.mjs says what
// it needs); `npm test` does not, since CI has no copy of Echo.
//
// The tests of this file run in order and build on each other, as one user's visit does.
import { createServer, type Server } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { EchoClient } from 'echo-rtk/client'
import { createEchoServer } from 'echo-rtk/server'

import { startDemo } from '../../scripts/startDemo.mjs'
import { accountButton, CHROMIUM, CHROMIUM_ARGS, openAccount, shownBalance } from '../e2e/demoHarness'
import { devToolsExtension, logged, play } from '../e2e/devToolsExtension'

const CONTROL = process.env.ECHO_CONTROL_URL ?? 'http://localhost:3300'
const ROUTER = process.env.ECHO_ROUTER_URL ?? 'http://localhost:3369'
/** The seeded apps: one without a free tier, one with a spend pool ($1 per user). */
const APP = process.env.ECHO_APP_ID ?? '74d9c979-e036-4e43-904f-32d214b361fc'
const FREE_TIER_APP = process.env.ECHO_FREE_TIER_APP_ID ?? '5b0a6c0e-8f2d-4c1e-9a7b-3d2e1f0a9b8c'
/** The access-token life Echo was started with (seconds). */
const ACCESS_TTL = Number(process.env.ECHO_ACCESS_TTL ?? 20)
/** The app's origin: the one callback URL the seeded apps allow. */
const APP_URL = 'http://localhost:5173'
/** Echo's Credentials test providers, and the names of the users they sign in. */
const PAYING_USER = { provider: 'test-user-1', name: 'Integration Test User' }
const BROKE_USER = { provider: 'test-user-2', name: 'Broke Test User' }

interface TokenRequest {
  grant: string | null
  refreshToken: string | null
  status: number | null
}

/** Every request the app's pages make to Echo's token endpoint, with its grant and Echo's status. */
function watchTokenRequests(browser: BrowserContext): TokenRequest[] {
  const seen: TokenRequest[] = []
  const pending = new Map<Request, TokenRequest>()
  browser.on('request', (request) => {
    if (request.method() !== 'POST' || !request.url().startsWith(`${CONTROL}/api/oauth/token`)) return
    const form = new URLSearchParams(request.postData() ?? '')
    const record = { grant: form.get('grant_type'), refreshToken: form.get('refresh_token'), status: null }
    seen.push(record)
    pending.set(request, record)
  })
  browser.on('requestfinished', (request) => {
    const record = pending.get(request)
    if (record !== undefined) void request.response().then((response) => (record.status = response?.status() ?? null))
  })
  return seen
}

/**
 * What the app's own pages log as errors, echo-rtk's warnings, and the failing answers they get
 * (Echo's pages, with their analytics and fonts from hosts this machine cannot reach, are Echo's
 * business).
 */
function watchAppProblems(browser: BrowserContext): string[] {
  const problems: string[] = []
  const onApp = (page: Page) => page.url().startsWith(APP_URL)
  const watch = (page: Page) => {
    page.on(
      'console',
      (message) =>
        (message.type() === 'error' || (message.type() === 'warning' && message.text().includes('echo-rtk'))) &&
        onApp(page) &&
        problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`),
    )
    page.on('pageerror', (error) => onApp(page) && problems.push(`page error: ${error.message}`))
    page.on(
      'response',
      (response) => response.status() >= 400 && onApp(page) && problems.push(`${response.status()} ${response.url()}`),
    )
  }
  for (const page of browser.pages()) watch(page)
  browser.on('page', watch)
  return problems
}

/** Signs the browser in to Echo itself, as a person does on Echo's login page (Auth.js, with its CSRF token). */
async function signInToEcho(browser: BrowserContext, provider: string): Promise<void> {
  const { csrfToken } = (await (await browser.request.get(`${CONTROL}/api/auth/csrf`)).json()) as { csrfToken: string }
  const login = await browser.request.post(`${CONTROL}/api/auth/callback/${provider}`, {
    form: { callbackUrl: `${CONTROL}/`, csrfToken },
    maxRedirects: 0,
  })
  expect(login.status(), "Echo's sign-in answered").toBe(302)
}

/**
 * The app's Sign in, then Echo's consent page ("Connect"), then back in the app. The demo signs in in
 * a window of its own: Echo's pages are in that window, and the app's page never leaves.
 */
async function signInThroughEcho(page: Page): Promise<void> {
  const opened = page.waitForEvent('popup', { timeout: 10_000 }).catch(() => null)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  const echoPage = (await opened) ?? page
  await echoPage.waitForURL((url) => url.href.startsWith(`${CONTROL}/oauth/authorize`), { timeout: 120_000 })
  const connect = echoPage.getByRole('button', { name: 'Connect' })
  await connect.waitFor({ timeout: 120_000 })
  // The page hydrates before its server action works.
  await echoPage.waitForLoadState('networkidle').catch(() => undefined)
  await connect.click()
  await accountButton(page).waitFor({ timeout: 60_000 })
}

/** The signed-in user's access token, as the app stored it. */
async function storedAccessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'))
    return (JSON.parse(localStorage.getItem(key ?? '') ?? '{}') as { access_token?: string }).access_token ?? ''
  })
}

/** What Echo says the user has, asked with their token. */
async function echoBalance(token: string): Promise<{ balance: number; totalSpent: number }> {
  const response = await fetch(`${CONTROL}/api/v1/balance`, { headers: { Authorization: `Bearer ${token}` } })
  expect(response.status).toBe(200)
  return (await response.json()) as { balance: number; totalSpent: number }
}

/** A browser with a profile of its own, and the app (the demo) on Echo's app `appId`. */
async function openApp(appId: string) {
  const demo = await startDemo({ echo: { appId, apiUrl: CONTROL, routerUrl: ROUTER }, appPort: 5173 })
  const profile = await mkdtemp(join(tmpdir(), 'echo-rtk-real-echo-'))
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  })
  return {
    browser,
    page: browser.pages()[0] ?? (await browser.newPage()),
    close: async () => {
      await browser.close()
      await demo.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}

describe("the demo on Echo's own server: one user's visit", () => {
  let app: Awaited<ReturnType<typeof openApp>>
  let tokens: TokenRequest[]
  let problems: string[]
  let otherTab: Page

  beforeAll(async () => {
    app = await openApp(APP)
    tokens = watchTokenRequests(app.browser)
    problems = watchAppProblems(app.browser)
    await signInToEcho(app.browser, PAYING_USER.provider)
  }, 120_000)
  afterAll(async () => {
    await app?.close()
  })

  it("signs in through Echo's consent page: one code exchange, the address bar cleaned", async () => {
    const { page } = app
    await page.goto(APP_URL)
    await signInThroughEcho(page)
    expect(page.url()).toBe(`${APP_URL}/`)
    expect(tokens.filter(({ grant }) => grant === 'authorization_code')).toHaveLength(1)
    expect(await (await openAccount(page)).textContent()).toContain(PAYING_USER.name)
  })

  it('shows the balance Echo has for the user, and no free-tier line for an app without a free tier', async () => {
    const { page } = app
    const { balance } = await echoBalance(await storedAccessToken(page))
    await expect.poll(() => shownBalance(page)).toBe(`$${balance.toFixed(2)}`)
    expect(await page.getByRole('region', { name: 'Credits' }).locator('[data-echo-balance-free]').count()).toBe(0)
  })

  it('a streamed chat is billed: Echo records the charge, and the app asks for the balance once the answer ends', async () => {
    const { page } = app
    const token = await storedAccessToken(page)
    const before = await echoBalance(token)
    const balanceRequests: number[] = []
    page.on('request', (request) => request.url() === `${CONTROL}/api/v1/balance` && balanceRequests.push(Date.now()))
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    const answer = page.getByRole('listitem', { name: 'Assistant' }).last()
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Hello from fake')
    await expect.poll(() => balanceRequests.length, { timeout: 10_000 }).toBeGreaterThan(0)
    const after = await echoBalance(token)
    expect(after.totalSpent).toBeGreaterThan(before.totalSpent)
  })

  it(
    `renews ${ACCESS_TTL}-second tokens in two tabs, one rotation at a time, for three token lives`,
    async () => {
      const { page, browser } = app
      otherTab = await browser.newPage()
      await otherTab.goto(APP_URL)
      await accountButton(otherTab).waitFor()
      const refreshesBefore = tokens.filter(({ grant }) => grant === 'refresh_token').length
      await page.waitForTimeout(ACCESS_TTL * 3 * 1000)
      const refreshes = tokens.filter(({ grant }) => grant === 'refresh_token').slice(refreshesBefore)
      expect(refreshes.length).toBeGreaterThanOrEqual(2)
      await expect.poll(() => refreshes.every(({ status }) => status === 200)).toBe(true)
      // Each rotation spends the refresh token the last one gave: never the same one twice.
      const spent = refreshes.map(({ refreshToken }) => refreshToken)
      expect(new Set(spent).size).toBe(spent.length)
      for (const tab of [page, otherTab]) await accountButton(tab).waitFor()
      // Both tabs still call Echo with a token it takes.
      expect((await echoBalance(await storedAccessToken(otherTab))).balance).toBeGreaterThan(0)
    },
    (ACCESS_TTL * 3 + 60) * 1000,
  )

  it('a reload keeps the session, with no new code exchange', async () => {
    const { page } = app
    const exchanges = tokens.filter(({ grant }) => grant === 'authorization_code').length
    await page.reload()
    await accountButton(page).waitFor()
    expect(tokens.filter(({ grant }) => grant === 'authorization_code')).toHaveLength(exchanges)
  })

  it("the app's own server (echo-rtk/server) verifies the user's token with Echo, and spends it at Echo's router", async () => {
    const echo = createEchoServer({ appId: APP, apiUrl: CONTROL, baseRouterUrl: ROUTER })
    const route = echo.route(async (_request, user) => {
      const completion = await user.router.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Hi' }],
      })
      return Response.json({ userId: user.id, answer: completion.choices[0]?.message.content })
    })
    const server: Server = createServer((request, response) => {
      const headers = new Headers(
        Object.entries(request.headers).flatMap(([name, value]) =>
          typeof value === 'string' ? [[name, value] as [string, string]] : [],
        ),
      )
      void Promise.resolve(
        route(new Request(`http://127.0.0.1${request.url ?? '/'}`, { method: 'POST', headers }), {}),
      ).then(async (answer) => {
        response.writeHead(answer.status, Object.fromEntries(answer.headers))
        response.end(Buffer.from(await answer.arrayBuffer()))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as { port: number }
      const call = (token: string) =>
        fetch(`http://127.0.0.1:${port}/api/chat`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
      const token = await storedAccessToken(app.page)
      const answered = await call(token)
      expect(answered.status).toBe(200)
      expect((await answered.json()) as unknown).toMatchObject({
        userId: expect.any(String) as unknown,
        answer: 'Hello from fake upstream',
      })
      const forged = await call(`${token.slice(0, -4)}AAAA`)
      expect(forged.status).toBe(401)
      expect(forged.headers.get('www-authenticate')).toMatch(/invalid_token/)
    } finally {
      server.close()
    }
  })

  it("the models list: Echo has no route for it, so echo-rtk answers from the list Echo's own SDK ships, in Node and in the browser", async () => {
    const token = await storedAccessToken(app.page)
    const fromNode = await new EchoClient({ apiKey: token, apiUrl: CONTROL }).models.supported()
    expect(fromNode.source).toBe('echo-sdk')
    expect(fromNode.models.some((model) => model.model_id === 'gpt-4o-mini')).toBe(true)
    // In the page, Echo's 404 carries no CORS headers: fetch fails as it would offline.
    // echo-rtk/client as the demo's Vite server serves it; the script is text, so no test tool rewrites its import().
    const client = `${APP_URL}/@fs${join(import.meta.dirname, '../../src/client.ts')}`
    const fromPage = await app.page.evaluate<{ source: string; count: number }>(`(async () => {
      const { EchoClient } = await import(${JSON.stringify(client)})
      const models = await new EchoClient({ apiKey: ${JSON.stringify(token)}, apiUrl: ${JSON.stringify(CONTROL)} }).models.supported()
      return { source: models.source, count: models.models.length }
    })()`)
    expect(fromPage).toMatchObject({ source: 'echo-sdk', count: fromNode.models.length })
    // The tab asked once; asked again, it remembers the route is missing and sends nothing.
    const asked = () => problems.filter((problem) => problem.includes('supported-models')).length
    const once = asked()
    const again = await app.page.evaluate<string>(`(async () => {
      const { EchoClient } = await import(${JSON.stringify(client)})
      return (await new EchoClient({ apiKey: ${JSON.stringify(token)}, apiUrl: ${JSON.stringify(CONTROL)} }).models.supported()).source
    })()`)
    expect(again).toBe('echo-sdk')
    expect(asked()).toBe(once)
  })

  it('signing out in one tab signs out the other', async () => {
    const { page } = app
    await (await openAccount(page)).getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await otherTab.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ timeout: 10_000 })
    // The one expected: the test's own first ask for the models route Echo does not have, which the
    // browser reports (no CORS headers on its 404). echo-rtk itself asks nothing known to fail.
    const unexpected = problems.filter(
      (problem) => !/supported-models|Failed to load resource: net::ERR_FAILED/.test(problem),
    )
    expect(unexpected).toEqual([])
  })
})

describe("Echo's own server: a user with no credit, and an app with a free tier", () => {
  it('a user with $0 and no free tier: the chat is refused (402) and the app offers a top-up', async () => {
    const app = await openApp(APP)
    try {
      await signInToEcho(app.browser, BROKE_USER.provider)
      await app.page.goto(APP_URL)
      await signInThroughEcho(app.page)
      expect(await (await openAccount(app.page)).textContent()).toContain(BROKE_USER.name)
      await app.page.keyboard.press('Escape')
      await app.page.getByRole('button', { name: 'Ask', exact: true }).click()
      await app.page.getByText('Out of credits: add some to keep chatting.').waitFor({ timeout: 30_000 })
      const panel = app.page.getByRole('region', { name: 'Echo account' })
      await expect
        .poll(() => panel.getByText('You are out of credits. Add credits to keep going.').isVisible())
        .toBe(true)
    } finally {
      await app.close()
    }
  }, 180_000)

  it("an app with a free tier: the user's share of its pool shows beside the balance", async () => {
    const app = await openApp(FREE_TIER_APP)
    try {
      await signInToEcho(app.browser, PAYING_USER.provider)
      await app.page.goto(APP_URL)
      await signInThroughEcho(app.page)
      const free = app.page.getByRole('region', { name: 'Credits' }).locator('[data-echo-balance-free]')
      await expect.poll(() => free.textContent(), { timeout: 30_000 }).toMatch(/^ Free tier \$\d+\.\d\d$/)
    } finally {
      await app.close()
    }
  }, 180_000)
})

describe("Echo's own server: moments played from Redux DevTools take the real fault's path", () => {
  it("an expired token meets Echo's 401 and one refresh; the session ended at the next refresh is refused by Echo", async () => {
    const app = await openApp(APP)
    try {
      await app.page.addInitScript(devToolsExtension)
      const tokenRequests = watchTokenRequests(app.browser)
      await signInToEcho(app.browser, PAYING_USER.provider)
      await app.page.goto(APP_URL)
      await signInThroughEcho(app.page)
      const refreshes = () => tokenRequests.filter(({ grant }) => grant === 'refresh_token')

      // Its 20-second tokens renew on their own too: what counts is what follows the moment.
      const before = refreshes().length
      await play(app.page, 'expireAccessToken')
      await app.page.getByRole('button', { name: 'Ask', exact: true }).click()
      const answer = app.page.getByRole('listitem', { name: 'Assistant' }).last()
      await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Hello from fake')
      await expect.poll(() => refreshes().slice(before).length).toBeGreaterThan(0)
      await expect
        .poll(() =>
          refreshes()
            .slice(before)
            .every(({ status }) => status === 200),
        )
        .toBe(true)

      await play(app.page, 'endSessionAtNextRefresh')
      await play(app.page, 'expireAccessToken')
      await play(app.page, 'showLowBalance')
      await app.page.getByText('Your session has ended. Sign in again.').first().waitFor({ timeout: 30_000 })
      await expect
        .poll(() =>
          refreshes()
            .map(({ refreshToken }) => refreshToken)
            .at(-1),
        )
        .toBe('echo-rtk-devtools-moment')
      expect(refreshes().at(-1)?.status).toBeGreaterThanOrEqual(400)
      const ended = (await logged(app.page)).filter(({ type }) => type === 'echo/auth/signedOut').at(-1)
      expect(ended?.meta?.cause).toMatchObject({ by: 'echo' })
    } finally {
      await app.close()
    }
  }, 180_000)
})
