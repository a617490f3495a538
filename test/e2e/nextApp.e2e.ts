// examples/next-app built by `next build` and served by `next start`, against the local Echo, in
// server mode: the app's server signs the user in and holds the session in an HttpOnly cookie, the
// page holds no token, and the app's own /api/chat (echo.route) runs streamText with a server-side
// tool billed to the user. A script injected into the page finds nothing to take, a page of another
// site is refused, and Echo's refusal signs every tab out.
import { join } from 'node:path'

import type { Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createServer, type Server } from 'node:http'

import { accountButton } from './demoHarness'
import { openNextApp, type NextAppUnderTest } from './nextAppHarness'
import { containing, probeContext } from './pageProbe'

const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots')
const ACCESS_TTL_S = 6
let app: NextAppUnderTest

beforeAll(async () => {
  app = await openNextApp({ accessTtl: ACCESS_TTL_S })
}, 180_000)
afterAll(async () => {
  await app?.close()
})

const credit = async (page: Page) => Number(((await accountButton(page).textContent()) ?? '').replace(/[^\d.-]/g, ''))
const answers = (page: Page) => page.getByRole('listitem', { name: 'Assistant' })

/** Takes the page at the top, on a desktop and on a 390 px phone. */
async function screenshots(page: Page, state: string) {
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: join(SCREENSHOTS, `${state}-desktop.png`) })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: join(SCREENSHOTS, `${state}-phone.png`) })
  await page.setViewportSize({ width: 1280, height: 860 })
}

/** Asks the chat and waits for the whole answer; returns its text. */
async function ask(page: Page, question: string): Promise<string> {
  const before = await answers(page).count()
  await page.getByLabel('Question').fill(question)
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  await expect.poll(() => answers(page).count(), { timeout: 15_000 }).toBe(before + 1)
  await expect
    .poll(() => page.getByRole('list', { name: 'Conversation' }).getAttribute('aria-busy'), { timeout: 15_000 })
    .toBe('false')
  return (await answers(page).last().textContent()) ?? ''
}

/** Every call the page makes to its own /api/chat and every refresh-token request, with their statuses. */
function watchCalls(page: Page) {
  const calls: { what: 'chat' | 'refresh'; status: number | undefined; authorization: string | undefined }[] = []
  page.on('requestfinished', (request: Request) => {
    const path = new URL(request.url()).pathname
    const what =
      path === '/api/chat'
        ? 'chat'
        : path === '/api/oauth/token' && (request.postData() ?? '').includes('refresh_token')
          ? 'refresh'
          : undefined
    if (what === undefined) return
    void Promise.all([request.response(), request.allHeaders()]).then(([response, headers]) =>
      calls.push({ what, status: response?.status(), authorization: headers.authorization }),
    )
  })
  return calls
}

describe('a Next.js app whose chat runs in its own route, billed to the signed-in user', () => {
  it("signs in, holds a two-turn conversation streamed from the route with the tool's result in it, each turn billed to the user", async () => {
    const { page } = app
    await page.setViewportSize({ width: 1280, height: 860 })
    const calls = watchCalls(page)
    await page.goto(app.appUrl)
    await page.getByRole('button', { name: 'Sign in' }).waitFor()
    await screenshots(page, 'next-signed-out')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await accountButton(page).waitFor()
    await expect.poll(() => credit(page)).toBe(11)

    const first = await ask(page, 'Where is my order A1042?')
    expect(first).toContain('Looked up order A1042: shipped with Pigeon Post, arrives Thursday')
    expect(first).toContain('The tool lookUpOrder answered:')
    await expect.poll(() => credit(page), { timeout: 5_000 }).toBeLessThan(11)
    const afterFirst = await credit(page)
    const second = await ask(page, 'And order B7?')
    expect(second).toContain('packing')
    await expect.poll(() => credit(page), { timeout: 5_000 }).toBeLessThan(afterFirst)

    const chats = calls.filter((call) => call.what === 'chat')
    expect(chats.map((call) => call.status)).toEqual([200, 200])
    // The page sends no token: the session's cookie goes with each call, and the server adds the token.
    expect(chats.map((call) => call.authorization)).toEqual([undefined, undefined])
    await screenshots(page, 'next-chat')
  })

  it('with 6-second tokens, calls keep working across several expiries: the server renews, once per expiry, the page never', async () => {
    const { page } = app
    const calls = watchCalls(page)
    const issuedBefore = app.dev.secretsSeen.accessTokens.size
    for (const question of ['Where is my order A1042?', 'And B7?', 'A1042 again?']) {
      await new Promise((wait) => setTimeout(wait, ACCESS_TTL_S * 1000))
      expect(await ask(page, question)).toContain('The tool lookUpOrder answered:')
    }
    expect(calls.filter((call) => call.what === 'chat').map((call) => call.status)).toEqual([200, 200, 200])
    expect(calls.filter((call) => call.what === 'refresh')).toEqual([])
    // Each question came after its token's life: one renewal on the server for each, at most one more
    // for a balance call that came as the renewed token's last third began.
    const renewals = app.dev.secretsSeen.accessTokens.size - issuedBefore
    expect(renewals).toBeGreaterThanOrEqual(3)
    expect(renewals).toBeLessThanOrEqual(6)
  })

  it('spent to a 402: the route answers 402 and the top-up offer opens', async () => {
    const { page } = app
    await app.setLeft({ balance: 0, freeTier: 0 })
    await page.getByLabel('Question').fill('One more?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await page
      .getByRole('region', { name: 'Echo account' })
      .getByText('You are out of credits. Add credits to keep going.')
      .waitFor({ timeout: 10_000 })
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('true')
    await page.getByRole('alert').getByText('You are out of Echo credits. Add credits to keep going.').waitFor()
    // The balance refetched after the route's answer shows what is left.
    await expect.poll(() => credit(page)).toBe(0)
    await screenshots(page, 'next-out-of-credits')
    await app.setLeft({ balance: 10, freeTier: 1 })
  })

  it('a script injected before the app loads finds no token, code or verifier: through sign-in, a reload, a billed chat and a renewal', async () => {
    const context = await app.newBrowser()
    const probe = await probeContext(context)
    const page = context.pages()[0] ?? (await context.newPage())
    await page.setViewportSize({ width: 1280, height: 860 })
    const issuedBefore = app.dev.secretsSeen.accessTokens.size
    await page.goto(app.appUrl)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await accountButton(page).waitFor()
    await page.reload()
    await accountButton(page).waitFor()
    expect(await ask(page, 'Where is my order A1042?')).toContain('The tool lookUpOrder answered:')
    await new Promise((wait) => setTimeout(wait, ACCESS_TTL_S * 1000))
    expect(await ask(page, 'And B7?')).toContain('packing')
    const { accessTokens, refreshTokens, codes, verifiers } = app.dev.secretsSeen
    // This browser's sign-in and at least one renewal happened, on the server.
    expect(accessTokens.size - issuedBefore).toBeGreaterThanOrEqual(2)
    const seen = await probe.seen(context.pages())
    // The probe saw the page's own traffic (so it is known to look where the tokens would be)...
    expect(seen.some(({ where, what }) => where === 'fetch' && what.includes('/api/echo/session'))).toBe(true)
    expect(seen.some(({ where }) => where === 'store action')).toBe(true)
    // ...and no token, code or verifier anywhere in it.
    expect(
      containing(seen, {
        'access token': accessTokens,
        'refresh token': refreshTokens,
        'authorization code': codes,
        'PKCE verifier': verifiers,
      }),
    ).toEqual([])
    const cookies = (await context.cookies(app.appUrl)).filter(({ name }) => name.startsWith('echo'))
    expect(cookies.map(({ name, httpOnly, sameSite }) => ({ name, httpOnly, sameSite }))).toEqual([
      { name: `echo_rtk_${app.dev.appId}`, httpOnly: true, sameSite: 'Lax' },
    ])
  })

  it("a page of another site posting to the app's routes with the user's cookie is refused 403, and nothing reaches Echo", async () => {
    const { page } = app
    const balanceNow = () =>
      page.evaluate(
        async () => ((await (await fetch('/api/echo/api/v1/balance')).json()) as { balance: number }).balance,
      )
    const before = await balanceNow()
    const { port } = new URL(app.appUrl)
    const target = (host: string) => `http://${host}:${port}`
    // Another port of the same host is the same site (its requests carry the cookie); localhost is another site.
    const attacker = await servePage((origin) => attackerPage(target('127.0.0.1'), origin))
    try {
      const statuses: Record<string, number> = {}
      const attackPage = await app.browser.newPage()
      attackPage.on('response', (response) => {
        const url = new URL(response.url())
        if (url.port === port) statuses[`${response.request().method()} ${url.pathname}`] = response.status()
      })
      for (const host of ['127.0.0.1', 'localhost']) {
        await attackPage.goto(`http://${host}:${attacker.port}/`)
        await attackPage.getByText('done').waitFor()
      }
      expect(statuses).toEqual({
        'POST /api/echo/router/chat/completions': 403,
        'POST /api/chat': 403,
        'POST /api/echo/signout': 403,
        'GET /api/echo/api/v1/balance': 403,
      })
      await attackPage.close()
    } finally {
      await attacker.close()
    }
    // Nothing was billed, and the user is still signed in.
    expect(await balanceNow()).toBe(before)
    await accountButton(page).waitFor()
  })

  it('Echo refusing the renewal: the cookie is cleared and every open tab shows the session-ended words', async () => {
    const { page } = app
    const second = await app.browser.newPage()
    await second.goto(app.appUrl)
    await accountButton(second).waitFor()
    await page.getByLabel('Question').fill('Still there?')
    // Every grant gone: Echo refuses the token, and then the refresh token. The question is sent from the
    // keyboard, not by finding the button: a tab that checks its session meanwhile (it comes back to the
    // front as the other opens) may meet the refusal first and sign out before the click, which ends the
    // same way this test asks for.
    await app.restartEcho()
    await page
      .getByLabel('Question')
      .press('Enter', { timeout: 1_000 })
      .catch(() => undefined)
    for (const tab of [page, second])
      await tab
        .getByRole('alert')
        .filter({ hasText: 'Your session has ended. Sign in again.' })
        .first()
        .waitFor({ timeout: 15_000 })
    await second.getByRole('button', { name: 'Sign in' }).waitFor()
    expect((await app.browser.cookies(app.appUrl)).filter(({ name }) => name.startsWith('echo_rtk_'))).toEqual([])
    await screenshots(second, 'next-session-ended')
    await second.close()
  })
})

/** A page that, as soon as it loads, posts to the app's routes from `origin` with the user's cookie, then says done. */
function attackerPage(app: string, origin: string): string {
  const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Spend it' }] })
  return `<!doctype html><meta charset="utf-8"><title>Not the app</title><body><script type="module">
const send = (path, init) => fetch(${JSON.stringify(app)} + path, { credentials: 'include', mode: 'no-cors', ...init }).catch(() => null)
await send('/api/echo/router/chat/completions', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: ${JSON.stringify(body)} })
await send('/api/chat', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"messages":[]}' })
await send('/api/echo/signout', { method: 'POST' })
await send('/api/echo/api/v1/balance')
document.body.append(${JSON.stringify(`done (${origin})`)}.replace(/ .*/, ''))
</script></body>`
}

/** Serves one page on a free port of 127.0.0.1 (reachable as localhost too); `page(origin)` is its HTML. */
async function servePage(page: (origin: string) => string): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    response.end(page(`http://${request.headers.host}`))
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as { port: number }
  return {
    port,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  }
}
