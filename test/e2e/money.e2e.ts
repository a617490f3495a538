import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { ARTIFACTS, openDemo, shownBalance, signInThroughPages, type DemoUnderTest } from './demoHarness'

let demo: DemoUnderTest
beforeAll(async () => {
  demo = await openDemo()
  await signInThroughPages(demo.page, demo)
  await demo.page.getByText('$10.00').waitFor()
})
afterAll(async () => {
  await demo?.close()
})

const dollars = (text: string) => Number(text.replace(/[$,]/g, ''))
/** A dev-server control (not part of Echo): sets what is left of the paid balance and the free tier. */
const setDevBalance = async (left: { balance?: number; freeTier?: number }) => {
  const response = await fetch(`${demo.apiUrl}/dev/balance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(left) })
  if (!response.ok) throw new Error(`/dev/balance answered ${response.status}`)
}

describe('credits and model calls in the demo', () => {
  it('tops up in a checkout tab, and the balance rises here without a reload', async () => {
    const { page, browser } = demo
    const loads: string[] = []
    page.on('load', () => loads.push(page.url()))
    await page.getByLabel('Amount (USD)').first().fill('5')
    const [checkout] = await Promise.all([browser.waitForEvent('page'), page.getByRole('button', { name: 'Add credits' }).first().click()])
    await checkout.getByRole('button', { name: /^Pay/ }).click()
    await checkout.waitForURL((url) => url.href.startsWith(demo.appUrl))
    await checkout.close()
    await page.bringToFront()
    // Coming back to the tab is a window focus for the page, which refetches the balance.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')))
    await expect.poll(() => shownBalance(page)).toBe('$15.00')
    expect(loads).toEqual([])
  })

  it('streams a chat answer: text appears before the answer ends, and the balance follows the spending', async () => {
    const { page } = demo
    // The router draws the free tier first (as Echo's does): spend it all, so the paid balance moves.
    await setDevBalance({ freeTier: 0 })
    const before = dollars(await shownBalance(page))
    await page.getByRole('button', { name: 'Ask' }).click()
    const answer = page.getByLabel('Answer')
    await expect.poll(async () => ((await answer.textContent()) ?? '').length).toBeGreaterThan(0)
    const partial = (await answer.textContent()) ?? ''
    expect(await answer.getAttribute('aria-busy')).toBe('true')
    await expect.poll(() => answer.getAttribute('aria-busy'), { timeout: 15_000 }).toBe('false')
    const full = (await answer.textContent()) ?? ''
    expect(full.length).toBeGreaterThan(partial.length)
    expect(full.startsWith(partial)).toBe(true)
    await expect.poll(async () => dollars(await shownBalance(page))).toBeLessThan(before)
  })

  it('draws an image and speaks a text through the router', async () => {
    const { page } = demo
    await page.getByRole('button', { name: 'Draw' }).click()
    await page.getByRole('img', { name: /^Generated:/ }).waitFor()
    await page.getByRole('button', { name: 'Speak' }).click()
    await page.locator('audio[aria-label="Speech"]').waitFor()
  })

  it('spends until Echo answers 402, then offers a top-up', async () => {
    const { page } = demo
    // A dev-server control (not part of Echo): leave a few cents, so the next answers spend it.
    await setDevBalance({ balance: 0.03, freeTier: 0 })
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await page.getByRole('button', { name: 'Ask' }).click()
      await expect.poll(() => page.getByLabel('Answer').getAttribute('aria-busy'), { timeout: 15_000 }).toBe('false')
      if (await page.getByText('Out of credits: add some to keep chatting.').isVisible()) break
    }
    await page.getByText('You are out of credits. Add credits to keep going.').first().waitFor()
    await page.screenshot({ path: join(ARTIFACTS, 'top-up-offer.png'), fullPage: true })
  })
})
