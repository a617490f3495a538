import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'

import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { expect } from 'vitest'

import { startDemo } from '../../scripts/startDemo.mjs'
import type { RunningDevServer } from '../../dev-server/startDevServer.mjs'

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). Playwright never downloads one. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const ARTIFACTS = join(import.meta.dirname, 'artifacts')

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]

export interface DemoUnderTest {
  appUrl: string
  apiUrl: string
  routerUrl: string
  testUser: { email: string; password: string; name: string; balance: number }
  browser: BrowserContext
  page: Page
  /** Stops the local Echo and starts a new one on the same ports: every grant and token is gone. */
  restartEcho(): Promise<void>
  /** Every token, code and verifier the local Echo (the one running now) has issued or been shown. */
  readonly secretsSeen: RunningDevServer['secretsSeen']
  /** A dev-server control (not part of Echo): sets what is left of the paid balance and the free tier. */
  setLeft(left: { balance?: number; freeTier?: number }): Promise<void>
  close(): Promise<void>
}

/**
 * The local Echo, the demo app and a headless Chromium with a fresh profile, for one test file;
 * `close()` stops all three and removes the profile, leaving no process behind. Echo's leniencies
 * are off unless asked for: a reused code or refresh token revokes the grant.
 */
export async function openDemo({
  accessTtl = 900,
  autoLogin = false,
  refreshGrace = false,
  codeReplay = false,
  balance = 10,
  creditDelayMs = 0,
} = {}): Promise<DemoUnderTest> {
  const demo = await startDemo({
    devServer: {
      port: 0,
      routerPort: 0,
      accessTtl,
      autoLogin,
      refreshGrace,
      codeReplay,
      streamDelayMs: 30,
      balance,
      creditDelayMs,
    },
    appPort: 0,
  })
  const profile = await mkdtemp(join(tmpdir(), 'echo-rtk-e2e-'))
  let browser: BrowserContext
  try {
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    })
  } catch (error) {
    await demo.close()
    await rm(profile, { recursive: true, force: true })
    throw error
  }
  await mkdir(ARTIFACTS, { recursive: true })
  let local = demo.devServer!
  const { apiUrl, routerUrl } = local
  return {
    appUrl: demo.appUrl,
    apiUrl,
    routerUrl,
    testUser: local.testUser,
    browser,
    page: browser.pages()[0] ?? (await browser.newPage()),
    get secretsSeen() {
      return local.secretsSeen
    },
    restartEcho: async () => {
      const { settings } = local
      await local.close()
      const { startDevServer } = await import('../../dev-server/startDevServer.mjs')
      local = await startDevServer({
        ...settings,
        port: Number(new URL(apiUrl).port),
        routerPort: Number(new URL(routerUrl).port),
      })
    },
    setLeft: async (left) => {
      const response = await fetch(`${apiUrl}/dev/balance`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(left),
      })
      if (!response.ok) throw new Error(`/dev/balance answered ${response.status}`)
    },
    close: async () => {
      await browser.close()
      await local.close()
      await demo.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}

/**
 * Signs in as a person would: the app's button, Echo's login page, the consent page, and back. The
 * demo signs in in a window of its own; Echo's pages are then in that window.
 */
export async function signInThroughPages(page: Page, demo: DemoUnderTest): Promise<void> {
  await page.goto(demo.appUrl)
  const popup = page.waitForEvent('popup', { timeout: 5_000 }).catch(() => null)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await passEchoPages((await popup) ?? page, page, demo)
}

/**
 * Echo's pages in `signInPage` (the app's page, or the sign-in window): the password and the
 * consent, unless this browser already gave them; done when `appPage` shows the account.
 */
export async function passEchoPages(signInPage: Page, appPage: Page, demo: DemoUnderTest): Promise<void> {
  const login = signInPage.getByLabel('Password')
  const consent = signInPage.getByRole('button', { name: 'Allow' })
  const signedIn = accountButton(appPage).waitFor()
  // A sign-in window that Echo lets through by itself (auto-login) hands over and closes: its pages are never shown.
  const shown = (page: typeof login) => page.waitFor().catch(() => undefined)
  await Promise.race([shown(login), shown(consent), signedIn])
  if (await login.isVisible().catch(() => false)) {
    await login.fill(demo.testUser.password)
    await signInPage.getByRole('button', { name: 'Sign in', exact: true }).click()
    await Promise.race([shown(consent), signedIn])
  }
  if (await consent.isVisible().catch(() => false)) await consent.click()
  await signedIn
}

/** `<EchoAccount>`'s button once signed in: it shows the credit and opens the account panel. */
export function accountButton(page: Page) {
  return page.getByRole('button', { name: /^Echo credits / })
}

/** The account panel, opened if it is closed. */
export async function openAccount(page: Page) {
  const button = accountButton(page)
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click()
  return page.getByRole('region', { name: 'Echo account' })
}

/**
 * What the pages of a browser log as errors and the answers they get with 404 or any other
 * failing status, for a test to say which it expected.
 */
export function watchProblems(browser: BrowserContext) {
  const problems: string[] = []
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${new URL(response.url()).pathname}`)
    })
  }
  for (const page of browser.pages()) watch(page)
  browser.on('page', watch)
  return problems
}

/** The paid balance the page's Credits card shows, e.g. `$10.00`. */
export async function shownBalance(page: Page): Promise<string> {
  return (await page.getByRole('region', { name: 'Credits' }).locator('[data-echo-balance-paid]').textContent()) ?? ''
}

/** What is left of the free tier, as the Credits card shows it, e.g. `Free tier $0.50` -> `$0.50`. */
export async function shownFreeTier(page: Page): Promise<string> {
  return (
    (await page.getByRole('region', { name: 'Credits' }).locator('[data-echo-balance-free]').textContent()) ?? ''
  ).replace(/^\s*Free tier\s*/, '')
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const WCAG_22_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']

/** axe-core's violations on the page, as `rule: selector` lines (an empty list when there are none). */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE })
  const found = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }>
        }
      }
    ).axe
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags } })
    return result.violations.flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${JSON.stringify(node.target)}`),
    )
  }, WCAG_22_A_AA)
  return found
}

/** Asks the chat once and waits for the whole answer: a model call through the session. */
export async function askOnce(page: Page, question: string) {
  const answers = page.getByRole('listitem', { name: 'Assistant' })
  const before = await answers.count()
  await page.getByLabel('Question').fill(question)
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  await expect.poll(() => answers.count(), { timeout: 15_000 }).toBe(before + 1)
  await expect
    .poll(() => page.getByRole('list', { name: 'Conversation' }).getAttribute('aria-busy'), { timeout: 15_000 })
    .toBe('false')
}
