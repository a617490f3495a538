// Debugging the session from Redux DevTools, in Chromium against the local Echo: the extension's page
// API (`window.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__`) stubbed as the extension exposes it, so the test
// sees what DevTools sees (every action that reaches the reducers, through echoDevToolsOptions'
// sanitizer) and dispatches what its dispatcher would (echoDevToolsOptions.actionCreators). Each moment
// played from there shows the real fault's UI and traffic, and the action log says why.
import { join } from 'node:path'

import type { Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { accountButton, askOnce, openDemo, signInThroughPages, type DemoUnderTest } from './demoHarness'
import { devToolsExtension, logged, play, type Shown } from './devToolsExtension'

/** The causes of the actions of `type` logged since `from`. */
const causesOf = async (page: Page, type: string, from = 0) =>
  (await logged(page))
    .slice(from)
    .filter((action) => action.type === type)
    .map((action) => action.meta?.cause)

/** Every request the page sends from now: method, address, refresh token of a grant, and the answer's status. */
function watchTraffic(page: Page) {
  const sent: { method: string; url: string; refreshToken: string | null; status: number | 'failed' | 'pending' }[] = []
  page.on('request', (request: Request) => {
    const form = request.url().endsWith('/api/oauth/token') ? new URLSearchParams(request.postData() ?? '') : null
    const entry = {
      method: request.method(),
      url: request.url(),
      refreshToken: form?.get('refresh_token') ?? null,
      status: 'pending' as number | 'failed' | 'pending',
    }
    sent.push(entry)
    void request.response().then(
      (response) => (entry.status = response?.status() ?? 'failed'),
      () => (entry.status = 'failed'),
    )
  })
  return sent
}

const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots')
const ENDED = 'Your session has ended. Sign in again.'
const reconnecting = (page: Page) => page.getByRole('button', { name: /^Echo credits .*, reconnecting$/ })

let demo: DemoUnderTest
let page: Page
beforeAll(async () => {
  demo = await openDemo()
  page = demo.page
  await page.addInitScript(devToolsExtension)
  await signInThroughPages(page, demo)
})
afterAll(async () => {
  await demo?.close()
})

describe('Redux DevTools, with the moments an app must handle', () => {
  it('its dispatcher lists the six moments; the log shows the sign-in, and never a token', async () => {
    const names = await page.evaluate(() => (window as unknown as Shown).__devTools.shown.names)
    expect(names).toEqual([
      'expireAccessToken',
      'endSessionAtNextRefresh',
      'answerNextBilledCallWith402',
      'actOffline',
      'showLowBalance',
      'playTopUpArriving',
    ])
    const log = await logged(page)
    expect(log.map((action) => action.type)).toContain('echo/auth/signedIn')
    const accessToken = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'))
      return (JSON.parse(localStorage.getItem(key!)!) as { access_token: string }).access_token
    })
    expect(accessToken.length).toBeGreaterThan(10)
    expect(JSON.stringify(log)).not.toContain(accessToken)
  })

  it('an expired token: the next call meets a 401 and the one refresh, and the answer comes; the log says which call', async () => {
    const traffic = watchTraffic(page)
    const from = (await logged(page)).length
    await play(page, 'expireAccessToken')
    await askOnce(page, 'Say hi')
    const grants = traffic.filter((request) => request.url.endsWith('/api/oauth/token'))
    expect(grants.map(({ status }) => status)).toEqual([200])
    expect(traffic.filter(({ status }) => status === 401)).toHaveLength(1)
    const [started] = await causesOf(page, 'echo/auth/tokenRefreshStarted', from)
    expect(started).toMatchObject({
      by: 'unauthorized',
      request: expect.stringMatching(/^POST http:\/\/.+\/chat\/completions$/) as string,
    })
  })

  it('offline for 3 s: reconnecting at once, then back; the log says the refresh could not get an answer', async () => {
    const from = (await logged(page)).length
    await play(page, 'actOffline', 3)
    await reconnecting(page).waitFor({ timeout: 5_000 })
    await expect.poll(() => reconnecting(page).count(), { timeout: 15_000 }).toBe(0)
    const interrupted = await causesOf(page, 'echo/auth/tokenRefreshInterrupted', from)
    expect(interrupted.length).toBeGreaterThan(0)
    for (const cause of interrupted)
      expect(cause).toMatchObject({ by: 'offline', detail: expect.stringContaining('acting offline') as string })
    const started = await causesOf(page, 'echo/auth/tokenRefreshStarted', from)
    expect(started[0]).toEqual({ by: 'dev-moment' })
    expect(started.at(-1)).toEqual({ by: 'online' })
  })

  it('a 402 for the next call: the call is refused for want of credit and the top-up is offered, nothing billed', async () => {
    const traffic = watchTraffic(page)
    await play(page, 'answerNextBilledCallWith402')
    await page.getByLabel('Question').fill('One more')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await page.getByText('You are out of credits. Add credits to keep going.').first().waitFor({ timeout: 10_000 })
    expect(traffic.filter((request) => request.url.startsWith(demo.routerUrl))).toEqual([])
  })

  it('time travel: a jump to before the sign-in shows "Sign in" over the live session; the jump to the last action comes home', async () => {
    // The first state signed out: the page as it loaded, before the sign-in started.
    const before = await page.evaluate(() =>
      (window as unknown as Shown).__devTools.shown.states.findIndex(
        (state) => (state as { echo: { auth: { status: string } } }).echo.auth.status === 'unauthenticated',
      ),
    )
    expect(before).toBeGreaterThanOrEqual(0)
    await page.evaluate((index) => (window as unknown as Shown).__devTools.shown.jumpTo(index), before)
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ timeout: 5_000 })
    expect(await accountButton(page).count()).toBe(0)
    await page.screenshot({ path: join(SCREENSHOTS, 'time-travel-past-desktop.png') })
    // The session goes on underneath (a balance asked again): DevTools records it and stays where it was.
    const recorded = (await logged(page)).length
    await play(page, 'showLowBalance')
    await expect.poll(async () => (await logged(page)).length, { timeout: 5_000 }).toBeGreaterThan(recorded + 1)
    expect(await accountButton(page).count()).toBe(0)
    await page.evaluate(() => (window as unknown as Shown).__devTools.shown.jumpTo(null))
    await accountButton(page).waitFor({ timeout: 5_000 })
    await page.screenshot({ path: join(SCREENSHOTS, 'time-travel-present-desktop.png') })
  })

  it("the session ended at the next refresh: Echo refuses it, the user reads why, and the log has Echo's error", async () => {
    const traffic = watchTraffic(page)
    const from = (await logged(page)).length
    await play(page, 'endSessionAtNextRefresh')
    await play(page, 'expireAccessToken')
    // The balance asked again meets the 401, and the refresh the refusal.
    await play(page, 'showLowBalance')
    await page.getByText(ENDED).first().waitFor({ timeout: 10_000 })
    const grants = traffic.filter((request) => request.url.endsWith('/api/oauth/token'))
    expect(grants.map(({ refreshToken, status }) => [refreshToken, status])).toEqual([
      ['echo-rtk-devtools-moment', 400],
    ])
    // Echo's own error code: the local Echo's OIDC provider says invalid_request of a token it never issued.
    expect(await causesOf(page, 'echo/auth/signedOut', from)).toEqual([
      { by: 'echo', error: expect.stringMatching(/^invalid_(grant|request)$/) as string },
    ])
    expect(await accountButton(page).count()).toBe(0)
  })
})
