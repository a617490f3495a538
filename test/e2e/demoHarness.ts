import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { chromium, type BrowserContext, type Page } from 'playwright-core'

import { startDemo } from '../../scripts/startDemo.mjs'

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). Playwright never downloads one. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const ARTIFACTS = join(import.meta.dirname, 'artifacts')

const CHROMIUM_ARGS = [
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
  close(): Promise<void>
}

/**
 * The local Echo, the demo app and a headless Chromium with a fresh profile, for one test file;
 * `close()` stops all three and removes the profile, leaving no process behind.
 */
export async function openDemo({ accessTtl = 900, autoLogin = false } = {}): Promise<DemoUnderTest> {
  const demo = await startDemo({ devServer: { port: 0, routerPort: 0, accessTtl, autoLogin, streamDelayMs: 30 }, appPort: 0 })
  const profile = await mkdtemp(join(tmpdir(), 'echo-rtk-e2e-'))
  let browser: BrowserContext
  try {
    browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
  } catch (error) {
    await demo.close()
    await rm(profile, { recursive: true, force: true })
    throw error
  }
  await mkdir(ARTIFACTS, { recursive: true })
  const local = demo.devServer!
  return {
    appUrl: demo.appUrl,
    apiUrl: local.apiUrl,
    routerUrl: local.routerUrl,
    testUser: local.testUser,
    browser,
    page: browser.pages()[0] ?? (await browser.newPage()),
    close: async () => {
      await browser.close()
      await demo.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}

/** Signs in as a person would: the app's button, Echo's login page, the consent page, and back. */
export async function signInThroughPages(page: Page, demo: DemoUnderTest): Promise<void> {
  await page.goto(demo.appUrl)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByLabel('Password').fill(demo.testUser.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Allow' }).click()
  await page.getByText(`Signed in as ${demo.testUser.name}`).waitFor()
}

/** The paid balance the page shows, e.g. `$10.00`. */
export async function shownBalance(page: Page): Promise<string> {
  return (await page.locator('[data-echo-balance-paid]').textContent()) ?? ''
}
