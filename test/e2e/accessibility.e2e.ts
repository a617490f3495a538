// The components as a keyboard and a screen reader meet them, in Chromium: axe-core (WCAG 2.2 A
// and AA) over the six states of the demo, and a keyboard walk where the focus never falls to
// <body>.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import {
  accountButton,
  openAccount,
  openDemo,
  passEchoPages,
  signInThroughPages,
  axeViolations as violations,
  type DemoUnderTest,
} from './demoHarness'

/** What has the keyboard focus: `tag "its name"` (an input's label), or `body`. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement
    if (active === null || active === document.body) return 'body'
    const name =
      active.getAttribute('aria-label') ??
      (active instanceof HTMLInputElement ? active.labels?.[0]?.textContent : active.textContent)
    return `${active.tagName.toLowerCase()} "${name?.trim() ?? ''}"`
  })

/** The newest message the provider's announcer says (each is a node of its own, read as it is added). */
const announced = (page: Page) => page.locator('[data-echo-announcer] > *').last().textContent()

describe('the components for a keyboard and a screen reader', () => {
  let demo: DemoUnderTest
  beforeAll(async () => {
    demo = await openDemo({ accessTtl: 6, autoLogin: true })
    await demo.page.setViewportSize({ width: 1280, height: 860 })
  })
  afterAll(async () => {
    await demo?.close()
  })

  it('pass every WCAG 2.2 A and AA rule of axe-core in six states', async () => {
    const { page } = demo
    await page.goto(demo.appUrl)
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    expect(await violations(page), 'signed out').toEqual([])

    await signInThroughPages(page, demo)
    expect(await violations(page), 'signed in').toEqual([])

    await openAccount(page)
    expect(await violations(page), 'the account panel open').toEqual([])

    let release = (): void => undefined
    await page.route('**/api/v1/stripe/payment-link', async (route) => {
      await new Promise<void>((resolve) => (release = resolve))
      await route.fulfill({ status: 502, contentType: 'application/json', body: '{"message":"Stripe is down"}' })
    })
    const addCredits = page.getByRole('region', { name: 'Echo account' }).getByRole('button', { name: 'Add credits' })
    await addCredits.click()
    await expect.poll(() => addCredits.getAttribute('aria-busy')).toBe('true')
    expect(await violations(page), 'a top-up in progress').toEqual([])
    release()
    await expect.poll(() => addCredits.getAttribute('aria-busy')).toBe('false')
    await page.unroute('**/api/v1/stripe/payment-link')
    await page.keyboard.press('Escape')

    await demo.setLeft({ balance: 0, freeTier: 0 })
    await page.getByLabel('Question').fill('One more?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await page
      .getByRole('region', { name: 'Echo account' })
      .getByText('You are out of credits. Add credits to keep going.')
      .waitFor()
    expect(await violations(page), 'out of credits').toEqual([])
    await demo.setLeft({ balance: 10, freeTier: 1 })

    await demo.restartEcho()
    await page.getByRole('alert').getByText('Your session has ended. Sign in again.').waitFor({ timeout: 10_000 })
    expect(await violations(page), 'the session ended').toEqual([])
  })

  it('a keyboard walk: the focus stays on busy buttons, Escape closes the panel from its field, and replaced controls hand the focus on', async () => {
    const { page } = demo
    await page.goto(demo.appUrl)
    const signIn = page.getByRole('button', { name: 'Sign in', exact: true })
    await signIn.waitFor()

    // Enter on Sign in: the window opens, the button reads Signing in..., keeps the focus, and says it once.
    const opened = page.waitForEvent('popup')
    await signIn.focus()
    await page.keyboard.press('Enter')
    const signInWindow = await opened
    await page.getByRole('button', { name: 'Signing in...' }).first().waitFor()
    expect(await focused(page)).toBe('button "Signing in..."')
    expect(await announced(page)).toBe('Signing in...')
    await passEchoPages(signInWindow, page, demo)

    // The account button: Enter opens the panel, Tab reaches the amount, Escape closes from there.
    await accountButton(page).focus()
    await page.keyboard.press('Enter')
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('true')
    await page.keyboard.press('Tab') // the amount field (the name and figures are text)
    expect(await focused(page)).toBe('input "Amount (USD)"')
    await page.keyboard.press('Escape')
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('false')
    expect(await focused(page)).toMatch(/^button "Echo credits /)

    // Enter on Add credits: busy, then failed; the focus never leaves it.
    await page.keyboard.press('Enter')
    await page.route('**/api/v1/stripe/payment-link', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: '{"message":"Stripe is down"}' }),
    )
    const addCredits = page.getByRole('region', { name: 'Echo account' }).getByRole('button', { name: 'Add credits' })
    await addCredits.focus()
    const [checkout] = await Promise.all([demo.browser.waitForEvent('page'), page.keyboard.press('Enter')])
    await expect.poll(() => checkout.isClosed()).toBe(true)
    expect(await focused(page)).toBe('button "Add credits"')
    await page.unroute('**/api/v1/stripe/payment-link')

    // Enter on the panel's Sign out: the Sign in button that replaces the account takes the focus.
    await page.getByRole('region', { name: 'Echo account' }).getByRole('button', { name: 'Sign out' }).focus()
    await page.keyboard.press('Enter')
    await signIn.waitFor()
    expect(await focused(page)).toBe('button "Sign in"')

    // The session ending (Echo restarted: the next renewal is refused) with the focus on the account button.
    const again = page.waitForEvent('popup')
    await signIn.click()
    await passEchoPages(await again, page, demo)
    await demo.restartEcho()
    await accountButton(page).focus()
    await signIn.waitFor({ timeout: 10_000 })
    expect(await focused(page)).toBe('button "Sign in"')
    await expect.poll(() => announced(page)).toBe('Your session has ended. Sign in again.')
  })
})
