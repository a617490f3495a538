// The user's money in sight, in the demo in Chromium against the local Echo: what a chat cost and
// today's total, a daily limit that stops the next chat before it is sent and that the user raises
// in the account panel, the low balance said before any 402, and a top-up whose credits arrive late
// (the local Echo's credit delay) seen in two tabs. Screenshots of each state, desktop and 390 px,
// go to docs/screenshots/; axe-core checks each.
import { join } from 'node:path'

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import {
  accountButton,
  askOnce,
  axeViolations,
  openAccount,
  openDemo,
  signInThroughPages,
  type DemoUnderTest,
} from './demoHarness'

const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots')
const CREDIT_DELAY_MS = 4_000

let demo: DemoUnderTest
/** Every request the browser's pages sent to the model router. */
let routerCalls: string[]
beforeAll(async () => {
  demo = await openDemo({ creditDelayMs: CREDIT_DELAY_MS })
  routerCalls = []
  demo.browser.on('request', (request) => {
    if (request.url().startsWith(demo.routerUrl) && request.method() === 'POST') routerCalls.push(request.url())
  })
})
afterAll(async () => {
  await demo?.close()
})

/** Saves `page` as `<state>-desktop.png` and, at 390 px wide, `<state>-phone.png`; axe-core finds nothing in it. */
async function screenshots(page: Page, state: string) {
  expect(await axeViolations(page), state).toEqual([])
  await page.screenshot({ path: join(SCREENSHOTS, `${state}-desktop.png`) })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: join(SCREENSHOTS, `${state}-phone.png`) })
  await page.setViewportSize({ width: 1280, height: 860 })
}

const chat = (page: Page) => page.getByRole('region', { name: 'Chat' })
const usd = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''))

/** Sets the daily limit in the account panel (`''`: none) and closes the panel. */
async function saveLimit(page: Page, limit: string) {
  const panel = await openAccount(page)
  await panel.getByLabel('Daily limit (USD)').fill(limit)
  await panel.getByRole('button', { name: 'Save limit' }).click()
  await panel.getByText('Saved').waitFor()
  await page.keyboard.press('Escape')
}

describe("the user's money, in sight", () => {
  it("a chat shows what it cost and today's total, the same in the account panel", async () => {
    const { page } = demo
    await page.setViewportSize({ width: 1280, height: 860 })
    await signInThroughPages(page, demo)
    await askOnce(page, 'What does an answer cost?')
    const last = chat(page).locator('[data-echo-spend-last]')
    await last.waitFor({ timeout: 10_000 })
    const cost = usd(await last.textContent())
    expect(cost).toBeGreaterThan(0)
    expect(await chat(page).locator('[data-echo-spend-today]').textContent()).toMatch(/^Today: \$0\.\d+$/)
    const panel = await openAccount(page)
    expect(usd(await panel.locator('[data-echo-spend-today]').textContent())).toBe(cost)
    await screenshots(page, 'spend-panel')
    await page.keyboard.press('Escape')
  })

  it('a limit of $0.01 stops the next chat before it is sent, with the limit saying so; raised in the panel, the chat goes through', async () => {
    const { page } = demo
    const panel = await openAccount(page)
    await panel.getByLabel('Daily limit (USD)').fill('0.01')
    await panel.getByRole('button', { name: 'Save limit' }).click()
    // Today's spend is past it already: the panel says so, where the limit is raised.
    await panel.locator('[data-echo-daily-limit-reached]').waitFor({ timeout: 5_000 })
    await page.keyboard.press('Escape')
    const sent = routerCalls.length
    await page.getByLabel('Question').fill('One more?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await chat(page)
      .getByText(/Today's limit for this app is reached/)
      .waitFor({ timeout: 10_000 })
    expect(routerCalls).toHaveLength(sent)
    expect(await page.getByText('Out of credits').count()).toBe(0)
    await openAccount(page)
    await screenshots(page, 'limit-reached')
    await page.keyboard.press('Escape')

    await saveLimit(page, '1')
    await askOnce(page, 'And now?')
    expect(routerCalls.length).toBeGreaterThan(sent)
  })

  it('a low balance is said before any 402: a quiet Add credits beside the credit', async () => {
    const { page } = demo
    // Just over $1.00 left: the next answer takes the credit under it.
    await demo.setLeft({ balance: 1.01, freeTier: 0 })
    await page.reload()
    await expect.poll(async () => usd(await accountButton(page).textContent())).toBe(1.01)
    expect(await page.locator('[data-echo-account-nudge]').count()).toBe(0)
    await askOnce(page, 'Am I running low?')
    const nudge = page.locator('[data-echo-account-nudge]')
    await nudge.waitFor({ timeout: 10_000 })
    expect(await page.getByRole('alert').count()).toBe(0)
    await expect
      .poll(() => page.locator('[data-echo-announcer]').textContent())
      .toContain('Your Echo credit is running low.')
    await screenshots(page, 'low-balance')
  })

  it('a top-up whose credits arrive late: "adding credits", then the amount added, in both tabs', async () => {
    const { page, browser } = demo
    const other = await browser.newPage()
    await other.goto(demo.appUrl)
    await accountButton(other).waitFor()
    const before = usd(await accountButton(page).textContent())
    const panel = await openAccount(page)
    await panel.getByLabel('Amount (USD)').fill('5')
    const [checkout] = await Promise.all([
      browser.waitForEvent('page'),
      panel.getByRole('button', { name: 'Add credits' }).click(),
    ])
    await checkout.getByRole('button', { name: /^Pay/ }).click()
    await expect.poll(() => checkout.isClosed()).toBe(true)
    for (const tab of [page, other]) {
      await tab.locator('[data-echo-top-up-status="waiting"]:visible').first().waitFor({ timeout: 5_000 })
    }
    await screenshots(page, 'top-up-waiting')
    for (const tab of [page, other]) {
      await tab
        .locator('[data-echo-top-up-status="credited"]:visible')
        .first()
        .getByText('Credits added: +$5.00.')
        .waitFor({ timeout: CREDIT_DELAY_MS + 10_000 })
    }
    await expect.poll(async () => usd(await accountButton(page).textContent())).toBeCloseTo(before + 5, 2)
    await screenshots(page, 'top-up-credited')
    await other.close()
  })
})
