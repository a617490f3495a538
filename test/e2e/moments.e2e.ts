// The moments around money and the session, through <EchoAccount> in the demo's app bar, and the
// screenshots of each state (desktop and a 390 px phone) that the README's demo section shows.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import {
  accountButton,
  openAccount,
  openDemo,
  signInThroughPages,
  watchProblems,
  type DemoUnderTest,
} from './demoHarness'

const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots')
let demo: DemoUnderTest
let problems: string[]
beforeAll(async () => {
  demo = await openDemo()
  problems = watchProblems(demo.browser)
  await mkdir(SCREENSHOTS, { recursive: true })
})
afterAll(async () => {
  await demo?.close()
})

/** Saves `page` as `<state>-desktop.png`, and the same state on a 390 px wide phone as `<state>-phone.png`. */
async function screenshots(
  page: Page,
  state: string,
  prepare: (page: Page) => Promise<void> = () => Promise.resolve(),
) {
  await page.screenshot({ path: join(SCREENSHOTS, `${state}-desktop.png`) })
  const phone = await demo.browser.newPage()
  await phone.setViewportSize({ width: 390, height: 844 })
  await phone.goto(page.url())
  await prepare(phone)
  await phone.screenshot({ path: join(SCREENSHOTS, `${state}-phone.png`) })
  await phone.close()
}

const credit = async (page: Page) => Number(((await accountButton(page).textContent()) ?? '').replace(/[^\d.-]/g, ''))

describe('<EchoAccount> in the app bar', () => {
  it('signs in, opens its panel with the balance, tops up in a checkout tab, and signs out; no console error or 404 on the way', async () => {
    const { page, browser } = demo
    await page.setViewportSize({ width: 1280, height: 860 })
    await page.goto(demo.appUrl)
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await screenshots(page, 'signed-out', (phone) =>
      phone.getByRole('button', { name: 'Sign in', exact: true }).waitFor(),
    )
    await signInThroughPages(page, demo)
    await expect.poll(() => credit(page)).toBe(11)
    await screenshots(page, 'signed-in', (phone) => accountButton(phone).waitFor())

    const panel = await openAccount(page)
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('true')
    expect(await panel.locator('[data-echo-account-user]').textContent()).toBe(`Signed in as ${demo.testUser.name}`)
    expect(await panel.locator('[data-echo-balance-paid]').textContent()).toBe('$10.00')
    await screenshots(page, 'account-panel', async (phone) => void (await openAccount(phone)))
    await page.keyboard.press('Escape')
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('false')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Echo credits /)

    await (await openAccount(page)).getByLabel('Amount (USD)').fill('5')
    const [checkout] = await Promise.all([
      browser.waitForEvent('page'),
      panel.getByRole('button', { name: 'Add credits' }).click(),
    ])
    await checkout.getByRole('button', { name: /^Pay/ }).click()
    await new Promise<void>((resolve) => checkout.once('close', () => resolve()))
    await expect.poll(() => credit(page), { timeout: 2_000 }).toBe(16)

    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await page.getByLabel('Question').fill('And a second question?')
    await expect
      .poll(() => page.getByRole('list', { name: 'Conversation' }).getAttribute('aria-busy'), { timeout: 15_000 })
      .toBe('false')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect.poll(() => page.getByRole('listitem', { name: 'Assistant' }).count(), { timeout: 15_000 }).toBe(2)
    await expect
      .poll(() => page.getByRole('list', { name: 'Conversation' }).getAttribute('aria-busy'), { timeout: 15_000 })
      .toBe('false')
    await page.getByRole('button', { name: 'Draw' }).click()
    await page.getByRole('img', { name: /^Generated:/ }).waitFor()
    await page.getByRole('button', { name: 'Speak' }).click()
    await page.locator('audio[aria-label="Speech"]').waitFor()
    await screenshots(page, 'models', async (phone) => {
      await phone.getByRole('button', { name: 'Ask', exact: true }).click()
      await phone.getByRole('listitem', { name: 'Assistant' }).waitFor()
      await expect
        .poll(() => phone.getByRole('list', { name: 'Conversation' }).getAttribute('aria-busy'), { timeout: 15_000 })
        .toBe('false')
    })

    await (await openAccount(page)).getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    expect(problems).toEqual([])
  })

  it('opens by itself at a 402, with the out-of-credits line', async () => {
    const { page } = demo
    await signInThroughPages(page, demo)
    await demo.setLeft({ balance: 0, freeTier: 0 })
    await page.getByLabel('Question').fill('One more?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await page
      .getByRole('region', { name: 'Echo account' })
      .getByText('You are out of credits. Add credits to keep going.')
      .waitFor()
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('true')
    // The balance refetched after the 402 shows what is left, and the offer stays.
    await expect.poll(() => credit(page)).toBe(0)
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('true')
    await screenshots(page, 'out-of-credits', async (phone) => {
      await accountButton(phone).waitFor()
      await phone.getByLabel('Question').fill('One more?')
      await phone.getByRole('button', { name: 'Ask', exact: true }).click()
      await phone
        .getByRole('region', { name: 'Echo account' })
        .getByText('You are out of credits. Add credits to keep going.')
        .waitFor()
      await expect.poll(() => credit(phone)).toBe(0)
    })
    // The browser itself logs each refused call; nothing else went wrong.
    expect(
      problems.filter(
        (problem) =>
          !/^(console: Failed to load resource: the server responded with a status of 402|402 \/chat\/completions$)/.test(
            problem,
          ),
      ),
    ).toEqual([])
    await demo.setLeft({ balance: 10, freeTier: 1 })
  })

  it('after Echo restarts (every grant gone), the session ends and says so: Your session has ended. Sign in again.', async () => {
    const { page } = demo
    problems.length = 0
    await demo.restartEcho()
    await page.getByLabel('Question').fill('Still there?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await page.getByRole('alert').getByText('Your session has ended. Sign in again.').waitFor()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'session-ended-desktop.png') })
    // The session logs the failed refresh; the browser logs the refused token and the 401 that led to it.
    const expected =
      /^(console: Token refresh failed:|console: Failed to load resource: the server responded with a status of (400|401)|401 \/chat\/completions$|400 \/api\/oauth\/token$)/
    expect(problems.filter((problem) => !expected.test(problem))).toEqual([])
    expect(problems.some((problem) => problem.startsWith('console: Token refresh failed:'))).toBe(true)
  })
})
