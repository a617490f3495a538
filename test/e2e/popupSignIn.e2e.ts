// Sign-in in a window of its own, in the demo (`signIn: 'popup'`, `signInOnDemand: true`), in
// Chromium against the local Echo: the page behind keeps what the user typed. The screenshots of
// the window and the page behind it, desktop and a 390 px phone, go to docs/screenshots/.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import {
  accountButton,
  CHROMIUM,
  CHROMIUM_ARGS,
  openAccount,
  openDemo,
  passEchoPages,
  shownBalance,
  type DemoUnderTest,
} from './demoHarness'

const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots')
const DRAFT = 'What do Echo credits pay for? (typed before signing in)'

let demo: DemoUnderTest
/** Every token request any page or window of the browser makes, by grant. */
let grants: string[]
beforeAll(async () => {
  demo = await openDemo()
  grants = []
  recordGrants(demo.browser)
  await mkdir(SCREENSHOTS, { recursive: true })
})
afterAll(async () => {
  await demo?.close()
})
afterEach(async () => {
  // Each test starts signed out, on one tab.
  for (const page of demo.browser.pages().slice(1)) await page.close()
  const { page } = demo
  await page.setViewportSize({ width: 1280, height: 860 })
  if (await accountButton(page).isVisible()) {
    await (await openAccount(page)).getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
  }
  grants.length = 0
})

/** Records the grant of every token request the browser's pages and windows make in `grants`. */
function recordGrants(browser: BrowserContext) {
  browser.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/oauth/token'))
      grants.push(new URLSearchParams(request.postData() ?? '').get('grant_type') ?? '')
  })
}

const codeExchanges = () => grants.filter((grant) => grant === 'authorization_code').length

/** The page's own address changes (a navigation of its main frame) from now on. */
function watchNavigations(page: Page) {
  const visited: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url())
  })
  return visited
}

/** Echo's sign-in page or, once this browser has signed in to Echo, its consent page. */
const echoPageShown = (signInWindow: Page) =>
  signInWindow
    .getByLabel('Password')
    .or(signInWindow.getByRole('button', { name: 'Allow' }))
    .waitFor()

/** Types the draft into the chat's box, signed out. */
async function typeDraft(page: Page) {
  await page.goto(demo.appUrl)
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
  await page.getByLabel('Question').fill(DRAFT)
}

describe('sign-in in a window of its own', () => {
  it('keeps the page: the draft typed before signing in is still in the box, one code exchange, no navigation', async () => {
    const { page } = demo
    await typeDraft(page)
    const navigations = watchNavigations(page)
    const opened = page.waitForEvent('popup')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    const signInWindow = await opened
    await signInWindow.getByLabel('Password').waitFor()
    // While the window is open the page behind stays as it was, and its sign-in buttons say so (a press
    // would bring the window to the front, never open a second one).
    await page.getByText('Ask the chat anything').waitFor()
    const busy = await page.getByRole('button', { name: 'Signing in...' }).all()
    expect(busy).toHaveLength(2)
    for (const button of busy) expect(await button.getAttribute('aria-disabled')).toBe('true')
    await page.screenshot({ path: join(SCREENSHOTS, 'popup-page-behind-desktop.png') })
    await signInWindow.screenshot({ path: join(SCREENSHOTS, 'popup-window-desktop.png') })

    await passEchoPages(signInWindow, page, demo)
    await expect.poll(() => signInWindow.isClosed()).toBe(true)
    expect(await page.getByLabel('Question').inputValue()).toBe(DRAFT)
    expect(navigations).toEqual([])
    expect(codeExchanges()).toBe(1)
    await expect.poll(() => shownBalance(page)).toBe('$10.00')
    // Nothing of the sign-in is left in the address.
    expect(new URL(page.url()).search).toBe('')
  })

  it('on a 390 px phone: the window, and the page behind it (screenshots)', async () => {
    const { page } = demo
    await page.setViewportSize({ width: 390, height: 844 })
    await typeDraft(page)
    const opened = page.waitForEvent('popup')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    const signInWindow = await opened
    // A phone's browser opens the window as a tab of the screen's size.
    await signInWindow.setViewportSize({ width: 390, height: 844 })
    await echoPageShown(signInWindow)
    await page.screenshot({ path: join(SCREENSHOTS, 'popup-page-behind-phone.png') })
    await signInWindow.screenshot({ path: join(SCREENSHOTS, 'popup-window-phone.png') })
    await passEchoPages(signInWindow, page, demo)
    expect(await page.getByLabel('Question').inputValue()).toBe(DRAFT)
  })

  it('closed by the user: the button is back to Sign in, nothing stored, no exchange', async () => {
    const { page } = demo
    await typeDraft(page)
    const opened = page.waitForEvent('popup')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    const signInWindow = await opened
    await echoPageShown(signInWindow)
    await signInWindow.close()
    // The opener looks every half second.
    const signIn = page.getByRole('button', { name: 'Sign in', exact: true })
    await signIn.waitFor({ timeout: 2_000 })
    expect(await signIn.getAttribute('aria-disabled')).not.toBe('true')
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('oidc.user:')))).toEqual(
      [],
    )
    expect(codeExchanges()).toBe(0)
    expect(await page.getByLabel('Question').inputValue()).toBe(DRAFT)
    // A closed window is the user's choice, not a failure: no error line.
    expect(await page.getByRole('alert').count()).toBe(0)
  })

  it('asked while signed out, the chat opens the window from the Ask click; the answer follows, billed, after one code exchange', async () => {
    const { page } = demo
    await typeDraft(page)
    const opened = page.waitForEvent('popup')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await passEchoPages(await opened, page, demo)
    await page.getByRole('listitem', { name: 'You' }).getByText(DRAFT).waitFor()
    const answer = page.getByRole('listitem', { name: 'Assistant' }).first()
    await expect.poll(async () => ((await answer.textContent()) ?? '').length, { timeout: 15_000 }).toBeGreaterThan(20)
    await expect.poll(() => page.getByRole('list', { name: 'Conversation' }).getAttribute('aria-busy')).toBe('false')
    // Billed: the credit went down from the $11.00 a fresh user has.
    await expect
      .poll(async () => Number(((await accountButton(page).textContent()) ?? '').replace(/[^\d.]/g, '')))
      .toBeLessThan(11)
    expect(codeExchanges()).toBe(1)
  })

  it('in two tabs: the other tab is signed in too, with no second exchange', async () => {
    const { page, browser } = demo
    const other = await browser.newPage()
    await other.goto(demo.appUrl)
    await typeDraft(page)
    const opened = page.waitForEvent('popup')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await passEchoPages(await opened, page, demo)
    await accountButton(other).waitFor({ timeout: 5_000 })
    expect(codeExchanges()).toBe(1)
  })
})

describe("with Chromium's pop-up blocker on", () => {
  let blocking: BrowserContext
  let profile: string
  beforeAll(async () => {
    // Chromium's own pop-up blocker, on (Playwright turns it off by default): it refuses a window
    // opened without the user's activation, as an in-app browser refuses every window.
    profile = await mkdtemp(join(tmpdir(), 'echo-rtk-e2e-blocking-'))
    blocking = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      ignoreDefaultArgs: ['--disable-popup-blocking'],
    })
    recordGrants(blocking)
  })
  afterAll(async () => {
    await blocking?.close()
    await rm(profile, { recursive: true, force: true })
  })

  /**
   * Runs `expression` in the page as a script, with no activation of the user, and answers its value.
   * Playwright's own page and locator calls count as the user's (a window may open for 5 s after
   * them), so until the windows below have been refused the test reads the page only this way.
   */
  async function inScript(page: Page, expression: string): Promise<unknown> {
    const cdp = await blocking.newCDPSession(page)
    try {
      const { result } = await cdp.send('Runtime.evaluate', { expression, userGesture: false, returnByValue: true })
      return result.value
    } finally {
      await cdp.detach()
    }
  }

  const click = (selector: string) => `document.querySelector(${JSON.stringify(selector)}).click()`
  const shows = (text: string) => `document.body.innerText.includes(${JSON.stringify(text)})`
  // React's textarea reads the value an input event carries.
  const typeDraftAsScript = `{
    const box = document.getElementById('question')
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(box, ${JSON.stringify(DRAFT)})
    box.dispatchEvent(new Event('input', { bubbles: true }))
  }`

  it('asked while signed out, the chat says the window was blocked; its own sign-in leaves the page and brings the draft back', async () => {
    const page = blocking.pages()[0] ?? (await blocking.newPage())
    let windows = 0
    blocking.on('page', () => (windows += 1))
    await page.goto(demo.appUrl)
    await expect.poll(() => inScript(page, shows('Sign in to ask'))).toBe(true)
    await inScript(page, typeDraftAsScript)
    await inScript(page, click('form.ask button[type="submit"]'))
    await expect.poll(() => inScript(page, shows('The browser blocked the sign-in window'))).toBe(true)
    expect(windows).toBe(0)
    // The chat's "Sign in to ask" takes the same-tab redirect, carrying the question (returnTo).
    await inScript(page, click('.chat-sign-in'))
    await passEchoPages(page, page, demo)
    expect(windows).toBe(0)
    expect(new URL(page.url()).origin).toBe(new URL(demo.appUrl).origin)
    await expect.poll(() => page.getByLabel('Question').inputValue()).toBe(DRAFT)
    await page.screenshot({ path: join(SCREENSHOTS, 'popup-blocked-returned-desktop.png') })
    expect(codeExchanges()).toBe(1)
  })

  it("with the blocker on, the user's own click opens the window: Ask, signed out, and the answer follows", async () => {
    const page = blocking.pages()[0] ?? (await blocking.newPage())
    await page.goto(demo.appUrl)
    if (await accountButton(page).isVisible()) {
      await (await openAccount(page)).getByRole('button', { name: 'Sign out' }).click()
    }
    await page.getByLabel('Question').fill(DRAFT)
    const opened = page.waitForEvent('popup')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await passEchoPages(await opened, page, demo)
    await page.getByRole('listitem', { name: 'You' }).getByText(DRAFT).waitFor()
    await page.getByRole('listitem', { name: 'Assistant' }).first().waitFor()
  })
})
