// Real life outside the happy path (docs/session.md, 'What "the refresh fails" means'), in Chromium
// against the local Echo: the network gone across an expiry, a laptop asleep, a flaky token
// endpoint, a reload during a refresh, Echo refusing the refresh with two tabs open, and a checkout
// paid in another tab while this one cannot reach Echo. An outage that ends asks for the balance
// once, silently: it says nothing of a payment and counts no spend.
import { join } from 'node:path'

import type { Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { accountButton, askOnce, openDemo, shownBalance, signInThroughPages, type DemoUnderTest } from './demoHarness'

const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots')

const ENDED = 'Your session has ended. Sign in again.'
/** `<EchoTopUp>`'s words while a paid checkout's credits are on their way. */
const ADDING_CREDITS = 'Payment received, adding credits…'
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Refresh {
  at: number
  refreshToken: string | null
  status: number | 'failed' | 'pending'
}

/** Every refresh-token request a page sends, into `refreshes`: when, with which refresh token, and what came back. */
function watchRefreshes(page: Page, refreshes: Refresh[] = []) {
  page.on('request', (request: Request) => {
    const form = new URLSearchParams(request.postData() ?? '')
    if (!request.url().endsWith('/api/oauth/token') || form.get('grant_type') !== 'refresh_token') return
    const refresh: Refresh = { at: Date.now(), refreshToken: form.get('refresh_token'), status: 'pending' }
    refreshes.push(refresh)
    void request.response().then(
      (response) => (refresh.status = response?.status() ?? 'failed'),
      () => (refresh.status = 'failed'),
    )
  })
  page.on('requestfailed', (request) => {
    for (const refresh of refreshes)
      if (refresh.status === 'pending' && request.url().endsWith('/api/oauth/token')) refresh.status = 'failed'
  })
  return refreshes
}

const reconnecting = (page: Page) => page.getByRole('button', { name: /^Echo credits .*, reconnecting$/ })

/** What `<EchoTopUp>` and the announcer say only once a checkout said it was paid. */
const TOP_UP_WORDS = ['Payment received', 'adding credits', 'Your payment went through']

/** The top-up words anywhere in the page's text (the announcer's live region too), and a top-up status if one is shown. */
function topUpShown(page: Page): Promise<string[]> {
  return page.evaluate((words) => {
    const text = document.body.textContent ?? ''
    const found = words.filter((said) => text.includes(said))
    const status = document.querySelector('[data-echo-top-up-status]')?.getAttribute('data-echo-top-up-status')
    return status === undefined ? found : [...found, `data-echo-top-up-status=${status}`]
  }, TOP_UP_WORDS)
}

/** What the page shows of the user's money: the paid balance, and the chat's spend line (`Today: $0.00`, the last answer's cost). */
async function shownMoney(page: Page) {
  const spend = page.getByRole('region', { name: 'Chat' }).locator('[data-echo-spend]')
  await spend.waitFor({ timeout: 5_000 })
  return { balance: await shownBalance(page), spend: await spend.textContent() }
}

/** When (this process's clock) each GET of Echo's balance left `page`. */
function watchBalanceRequests(page: Page, apiUrl: string): number[] {
  const sent: number[] = []
  page.on('request', (request) => {
    if (request.method() === 'GET' && request.url() === `${apiUrl}/api/v1/balance`) sent.push(Date.now())
  })
  return sent
}

/**
 * The focus and visibility events the page's window has had since this was first called in its
 * document: either refetches the balance (refetchOnFocus), so a count of balance requests holds
 * only while this stays the same.
 */
function focusEvents(page: Page): Promise<number> {
  return page.evaluate(() => {
    const counted = window as unknown as { focusEvents?: number }
    if (counted.focusEvents === undefined) {
      counted.focusEvents = 0
      const count = () => (counted.focusEvents = (counted.focusEvents ?? 0) + 1)
      window.addEventListener('focus', count)
      document.addEventListener('visibilitychange', count)
    }
    return counted.focusEvents
  })
}

/** The page before a fault: its money as shown, and the focus events so far. */
async function beforeFault(page: Page) {
  await expect.poll(() => shownBalance(page), { timeout: 5_000 }).toMatch(/^\$\d/)
  return { money: await shownMoney(page), focus: await focusEvents(page) }
}

/**
 * The session is back (the account no longer says "Reconnecting…"), Echo having been reachable
 * again since `backAt`: for the next 3 s the page never shows a top-up (nobody paid), its balance
 * and spend are what they were before the fault, and it asked for the balance `requests` times
 * since `backAt` (once: the outage that ended), with no focus event that would have asked too.
 */
async function expectQuietEnd(
  page: Page,
  before: Awaited<ReturnType<typeof beforeFault>>,
  { backAt, balanceRequests, requests = 1 }: { backAt: number; balanceRequests: number[]; requests?: number },
) {
  const seen = new Set<string>()
  const until = Date.now() + 3_000
  do {
    for (const found of await topUpShown(page)) seen.add(found)
    await pause(200)
  } while (Date.now() < until)
  for (const found of await topUpShown(page)) seen.add(found)
  expect([...seen]).toEqual([])
  expect(await shownMoney(page)).toEqual(before.money)
  expect(await focusEvents(page)).toBe(before.focus)
  expect(balanceRequests.filter((sent) => sent >= backAt)).toHaveLength(requests)
}

describe('a session with 6-second tokens, through faults a browser lives with', () => {
  let demo: DemoUnderTest
  beforeAll(async () => {
    demo = await openDemo({ accessTtl: 6, autoLogin: true })
  })
  afterAll(async () => {
    await demo?.close()
  })

  it('offline across an expiry: still signed in, "Reconnecting…", nothing wiped; back online, at most two token requests, and the next call works', async () => {
    const { page, browser } = demo
    await page.setViewportSize({ width: 1280, height: 860 })
    const refreshes = watchRefreshes(page)
    const balanceRequests = watchBalanceRequests(page, demo.apiUrl)
    await signInThroughPages(page, demo)
    const before = await beforeFault(page)
    await browser.setOffline(true)
    // Renewed at two thirds of the 5 s Echo's answer gives (a second short of the 6 s life); offline
    // it fails, and the backoff tries again 2 s and 5 s later.
    await reconnecting(page).waitFor({ timeout: 10_000 })
    await pause(6_000)
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(await page.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('oidc.user:')))).toBe(true)
    await page.screenshot({ path: join(SCREENSHOTS, 'reconnecting-desktop.png') })
    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: join(SCREENSHOTS, 'reconnecting-phone.png') })
    await page.setViewportSize({ width: 1280, height: 860 })
    const beforeBack = refreshes.length
    const backAt = Date.now()
    await browser.setOffline(false)
    await accountButton(page).filter({ hasNotText: 'Reconnecting…' }).waitFor({ timeout: 5_000 })
    const afterBack = refreshes.slice(beforeBack)
    expect(afterBack.length).toBeGreaterThanOrEqual(1)
    expect(afterBack.length).toBeLessThanOrEqual(2)
    expect(afterBack.at(-1)?.status).toBe(200)
    await expectQuietEnd(page, before, { backAt, balanceRequests })
    await askOnce(page, 'Still here after the Wi-Fi dropped?')
    expect(await page.getByRole('alert').count()).toBe(0)
  })

  it('asleep past the expiry, the Wi-Fi back 3 s after waking: one failed attempt on waking, then renewed, still signed in', async () => {
    const page = await demo.browser.newPage()
    // Either tab may renew for both (they take turns under the cross-tab lock).
    const refreshes: Refresh[] = []
    for (const tab of [demo.page, page]) watchRefreshes(tab, refreshes)
    const balanceRequests = watchBalanceRequests(page, demo.apiUrl)
    const otherBalanceRequests = watchBalanceRequests(demo.page, demo.apiUrl)
    await page.clock.install()
    await page.goto(demo.appUrl)
    await accountButton(page).waitFor() // signed in by the test before, in the other tab
    const before = await beforeFault(page)
    const otherBefore = await beforeFault(demo.page)
    await demo.browser.setOffline(true)
    // The lid closes for ten minutes: the page's clock jumps, and its timers fire on waking.
    await page.clock.fastForward('10:00')
    await reconnecting(page).waitFor({ timeout: 5_000 })
    // The other tab, its 6 s token renewed every 3.3 s or so, is reconnecting too by then.
    await Promise.all([pause(3_000), reconnecting(demo.page).waitFor({ timeout: 5_000 })])
    const backAt = Date.now()
    await demo.browser.setOffline(false)
    await accountButton(page).filter({ hasNotText: 'Reconnecting…' }).waitFor({ timeout: 5_000 })
    expect(refreshes.some((refresh) => refresh.status === 'failed')).toBe(true)
    expect(refreshes.filter((refresh) => refresh.status === 200).length).toBeGreaterThanOrEqual(1)
    expect(refreshes.filter((refresh) => typeof refresh.status === 'number' && refresh.status >= 400)).toEqual([])
    // The other tab's outage ended too: the same there, its balance asked for once.
    await Promise.all([
      expectQuietEnd(page, before, { backAt, balanceRequests }),
      expectQuietEnd(demo.page, otherBefore, { backAt, balanceRequests: otherBalanceRequests }),
    ])
    await askOnce(page, 'Good morning?')
    await page.close()
  })

  it('a 503 from the token endpoint, once: still signed in, renewed on the backoff, the next call works', async () => {
    const { page } = demo
    const balanceRequests = watchBalanceRequests(page, demo.apiUrl)
    const before = await beforeFault(page)
    let answered503 = 0
    // The token endpoint is back from the moment its one 503 is sent.
    let backAt = Infinity
    await page.route('**/api/oauth/token', async (route) => {
      if (answered503 === 0 && (route.request().postData() ?? '').includes('grant_type=refresh_token')) {
        answered503 += 1
        backAt = Date.now()
        return route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"message":"Service Unavailable"}',
        })
      }
      return route.fallback()
    })
    await expect.poll(() => answered503, { timeout: 10_000 }).toBe(1)
    await reconnecting(page).waitFor({ timeout: 5_000 })
    await accountButton(page).filter({ hasNotText: 'Reconnecting…' }).waitFor({ timeout: 8_000 })
    expect(await page.getByRole('alert').count()).toBe(0)
    await expectQuietEnd(page, before, { backAt, balanceRequests })
    await askOnce(page, 'After a 503?')
    await page.unroute('**/api/oauth/token')
  })

  it('a connection reset on the token request, once: the same', async () => {
    const { page } = demo
    let reset = 0
    await page.route('**/api/oauth/token', async (route) => {
      if (reset === 0 && (route.request().postData() ?? '').includes('grant_type=refresh_token')) {
        reset += 1
        return route.abort('connectionreset')
      }
      return route.fallback()
    })
    await expect.poll(() => reset, { timeout: 10_000 }).toBe(1)
    await accountButton(page).filter({ hasNotText: 'Reconnecting…' }).waitFor({ timeout: 8_000 })
    expect(await page.getByRole('alert').count()).toBe(0)
    await page.unroute('**/api/oauth/token')
  })
})

describe("a reload while a refresh is at Echo, with Echo's 2-minute grace for a rotated refresh token", () => {
  let demo: DemoUnderTest
  beforeAll(async () => {
    demo = await openDemo({ accessTtl: 6, autoLogin: true, refreshGrace: true })
  })
  afterAll(async () => {
    await demo?.close()
  })

  it('the page dies after Echo rotated the token and before it stored the answer: the reloaded page is still signed in', async () => {
    const { page } = demo
    const refreshes = watchRefreshes(page)
    await signInThroughPages(page, demo)
    let heldAtEcho = (): void => undefined
    const reachedEcho = new Promise<void>((resolve) => (heldAtEcho = resolve))
    await page.route('**/api/oauth/token', async (route) => {
      if (!(route.request().postData() ?? '').includes('grant_type=refresh_token')) return route.fallback()
      // Echo gets the refresh and rotates the token; the answer never reaches the page, whose
      // request is cancelled as a browser cancels it when the page goes.
      await route.fetch()
      await route.abort('aborted')
      heldAtEcho()
    })
    await reachedEcho
    await page.unroute('**/api/oauth/token')
    await page.reload()
    await accountButton(page).waitFor()
    // The stored refresh token is the one Echo already rotated; within the grace it still works.
    await expect
      .poll(() => refreshes.filter((refresh) => refresh.status === 200).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(1)
    const [spent, reused] = refreshes
    expect(reused?.refreshToken).toBe(spent?.refreshToken)
    expect(reused?.status).toBe(200)
    expect(await page.getByText(ENDED).count()).toBe(0)
    await askOnce(page, 'Still me after the reload?')
  })
})

describe('Echo refusing the refresh with two tabs open', () => {
  let demo: DemoUnderTest
  beforeAll(async () => {
    // Tokens long enough that no renew timer fires within a run: a call in the first tab starts the refresh.
    demo = await openDemo({ accessTtl: 60, autoLogin: true })
  })
  afterAll(async () => {
    await demo?.close()
  })

  it('both tabs say the session ended, ten runs in a row', async () => {
    const { page: first, browser } = demo
    const second = await browser.newPage()
    await first.goto(demo.appUrl)
    await second.goto(demo.appUrl)
    for (let run = 1; run <= 10; run += 1) {
      // Signing in in the first tab signs the second in too (a storage event).
      await first.getByRole('button', { name: 'Sign in', exact: true }).click()
      // Signed in, and the balance loaded: the balance calls (after the signed-in paint) are not the call refused.
      for (const page of [first, second]) await page.getByRole('button', { name: /^Echo credits \$/ }).waitFor()
      // Every grant is gone, and the signing key: the first tab's next call is refused (401), and
      // its refresh too (400).
      await demo.restartEcho()
      await first.getByLabel('Question').fill(`Run ${run}: still there?`)
      await first.getByRole('button', { name: 'Ask', exact: true }).click()
      for (const page of [first, second]) {
        await page.getByRole('alert').getByText(ENDED).waitFor({ timeout: 10_000 })
        await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
      }
    }
    await second.close()
  }, 120_000)
})

describe('a checkout paid in another tab while this one cannot reach Echo', () => {
  let demo: DemoUnderTest
  beforeAll(async () => {
    // Two-minute tokens: the paying tab renews none within the test, so none reaches the tab in the outage by storage.
    demo = await openDemo({ accessTtl: 120, autoLogin: true })
  })
  afterAll(async () => {
    await demo?.close()
  })

  it('the tab in the outage hears of it, waits, and once Echo is back shows the credits added and the new balance', async () => {
    const { page: paying, browser, apiUrl } = demo
    await signInThroughPages(paying, demo)
    await expect.poll(() => shownBalance(paying)).toBe('$10.00')
    // The tab in the outage: Playwright's offline is the whole browser's, so this one tab's requests
    // to Echo fail as offline ones do, while the paying tab's (and its checkout tab's) go through.
    const away = await browser.newPage()
    await away.clock.install()
    await away.goto(demo.appUrl)
    await expect.poll(() => shownBalance(away)).toBe('$10.00')
    // Each balance request of this tab that did not get through, and when.
    const balanceFailed: number[] = []
    away.on('requestfailed', (request) => {
      if (request.method() === 'GET' && request.url() === `${apiUrl}/api/v1/balance`) balanceFailed.push(Date.now())
    })
    await away.route(`${apiUrl}/**`, (route) => route.abort('internetdisconnected'))
    // Its clock jumps past its token's renewal (a laptop waking): its refresh cannot reach Echo, and it
    // reconnects until Echo is back; the paying tab, whose clock did not jump, has nothing to renew.
    await away.clock.fastForward('02:00')
    await reconnecting(away).waitFor({ timeout: 5_000 })

    const credits = paying.getByRole('region', { name: 'Credits' })
    await credits.getByLabel('Amount (USD)').fill('5')
    const [checkout] = await Promise.all([
      browser.waitForEvent('page'),
      credits.getByRole('button', { name: 'Add credits' }).click(),
    ])
    const paidAt = Date.now()
    await checkout.getByRole('button', { name: /^Pay/ }).click()
    // The checkout tab came back to the app marked paid, told the other tabs, and closed itself.
    await expect.poll(() => checkout.isClosed(), { timeout: 10_000 }).toBe(true)
    await credits
      .locator('[data-echo-top-up-status="credited"]')
      .getByText('Credits added: +$5.00.')
      .waitFor({ timeout: 5_000 })

    // The tab in the outage heard it: it waits for the credits, still reconnecting, its balance
    // checks failing, the old balance shown.
    const awayCredits = away.getByRole('region', { name: 'Credits' })
    await awayCredits
      .locator('[data-echo-top-up-status="waiting"]')
      .getByText(ADDING_CREDITS)
      .waitFor({ timeout: 5_000 })
    await expect
      .poll(() => balanceFailed.filter((failed) => failed >= paidAt).length, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(1)
    expect(await reconnecting(away).count()).toBe(1)
    expect(await shownBalance(away)).toBe('$10.00')

    // Echo reachable again: the next check (or the renewal that ends the outage) finds the credits.
    await away.unroute(`${apiUrl}/**`)
    await awayCredits
      .locator('[data-echo-top-up-status="credited"]')
      .getByText('Credits added: +$5.00.')
      .waitFor({ timeout: 15_000 })
    await expect.poll(() => shownBalance(away)).toBe('$15.00')
    await accountButton(away).filter({ hasNotText: 'Reconnecting…' }).waitFor({ timeout: 5_000 })
    expect(await away.getByRole('alert').count()).toBe(0)
    await away.close()
  })
})
