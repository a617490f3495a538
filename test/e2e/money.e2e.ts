import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { ARTIFACTS, openDemo, shownBalance, shownFreeTier, signInThroughPages, type DemoUnderTest } from './demoHarness'

let demo: DemoUnderTest
beforeAll(async () => {
  demo = await openDemo()
  await signInThroughPages(demo.page, demo)
  await demo.page.getByRole('region', { name: 'Credits' }).getByText('$10.00').waitFor()
})
afterAll(async () => {
  await demo?.close()
})

/** Asks the demo's chat one question and waits for the answer (or the failure) to settle. */
async function ask(page: DemoUnderTest['page'], question: string) {
  await page.getByLabel('Question').fill(question)
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  await expect
    .poll(() => page.getByRole('list', { name: 'Conversation' }).getAttribute('aria-busy'), { timeout: 15_000 })
    .toBe('false')
}
const dollars = (text: string) => Number(text.replace(/[^\d.-]/g, ''))
/** What the page shows of the paid balance and the free tier together, in dollars. */
const shownCredit = async (page: DemoUnderTest['page']) =>
  dollars(await shownBalance(page)) + dollars(await shownFreeTier(page))
/** A dev-server control (not part of Echo): sets what is left of the paid balance and the free tier. */
const setDevBalance = async (left: { balance?: number; freeTier?: number }) => {
  const response = await fetch(`${demo.apiUrl}/dev/balance`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(left),
  })
  if (!response.ok) throw new Error(`/dev/balance answered ${response.status}`)
}

describe('credits and model calls in the demo', () => {
  it('tops up in a checkout tab that closes itself once paid; this tab shows the new balance within 2 s, no focus, no reload', async () => {
    const { page, browser } = demo
    const loads: string[] = []
    page.on('load', () => loads.push(page.url()))
    const before = dollars(await shownBalance(page))
    const credits = page.getByRole('region', { name: 'Credits' })
    await credits.getByLabel('Amount (USD)').fill('5')
    const [checkout] = await Promise.all([
      browser.waitForEvent('page'),
      credits.getByRole('button', { name: 'Add credits' }).click(),
    ])
    await checkout.getByRole('button', { name: /^Pay/ }).click()
    const closed = new Promise<void>((resolve) => checkout.once('close', () => resolve()))
    const paidAt = Date.now()
    await closed
    await expect.poll(() => shownBalance(page), { timeout: 2_000 }).toBe(`$${(before + 5).toFixed(2)}`)
    expect(Date.now() - paidAt).toBeLessThan(4_000)
    expect(loads).toEqual([])
    expect(page.url()).toBe(`${demo.appUrl}/`)
  })

  it("tops up from the app's own button (useEcho().openCheckout): the same self-closing checkout tab, this tab updated with no focus event", async () => {
    const { page, browser } = demo
    const focusEvents = await page.evaluate(() => {
      const seen = { count: 0 }
      window.addEventListener('focus', () => (seen.count += 1))
      ;(window as unknown as { focusSeen: typeof seen }).focusSeen = seen
      return seen.count
    })
    const before = dollars(await shownBalance(page))
    const [checkout] = await Promise.all([
      browser.waitForEvent('page'),
      page.getByRole('button', { name: 'Add $5' }).click(),
    ])
    await checkout.getByRole('button', { name: /^Pay/ }).click()
    await new Promise<void>((resolve) => checkout.once('close', () => resolve()))
    await expect.poll(() => shownBalance(page), { timeout: 2_000 }).toBe(`$${(before + 5).toFixed(2)}`)
    expect(await page.evaluate(() => (window as unknown as { focusSeen: { count: number } }).focusSeen.count)).toBe(
      focusEvents,
    )
  })

  it('holds a useChat conversation of two turns, each streamed in, the credit going down after each answer', async () => {
    const { page } = demo
    const conversation = page.getByRole('list', { name: 'Conversation' })
    const answers = conversation.getByRole('listitem', { name: 'Assistant' })
    for (const [turn, question] of ['What are Echo credits?', 'And how do I get more?'].entries()) {
      const before = await shownCredit(page)
      await page.getByLabel('Question').fill(question)
      // The question is in the form's state before it is sent.
      await expect.poll(() => page.getByLabel('Question').inputValue()).toBe(question)
      await page.getByRole('button', { name: 'Ask', exact: true }).click()
      await expect.poll(async () => ((await answers.nth(turn).textContent()) ?? '').length).toBeGreaterThan(0)
      const partial = (await answers.nth(turn).textContent()) ?? ''
      expect(await conversation.getAttribute('aria-busy')).toBe('true')
      await expect.poll(() => conversation.getAttribute('aria-busy'), { timeout: 15_000 }).toBe('false')
      const whole = (await answers.nth(turn).textContent()) ?? ''
      expect(whole.length).toBeGreaterThan(partial.length)
      expect(whole.startsWith(partial)).toBe(true)
      expect(whole).toContain(question)
      await expect.poll(() => shownCredit(page)).toBeLessThan(before)
    }
    expect(await conversation.getByRole('listitem', { name: 'You' }).allTextContents()).toEqual([
      'What are Echo credits?',
      'And how do I get more?',
    ])
    await page.screenshot({ path: join(ARTIFACTS, 'chat-two-turns.png'), fullPage: true })
  })

  it('draws images (the AI SDK through useEchoFetch) and speaks a text; no call that completed is reported aborted', async () => {
    const { page } = demo
    const failed: string[] = []
    page.on('requestfailed', (request) =>
      failed.push(`${new URL(request.url()).pathname}: ${request.failure()?.errorText}`),
    )
    const drawn = page.getByRole('img', { name: /^Generated:/ })
    for (let image = 1; image <= 24; image += 1) {
      await page.getByLabel('Prompt').fill(`A lighthouse, take ${image}`)
      await page.getByRole('button', { name: 'Draw' }).click()
      await expect.poll(() => drawn.getAttribute('alt')).toBe(`Generated: A lighthouse, take ${image}`)
    }
    // Each answer arrived whole: Chromium must not list any of them as cancelled (net::ERR_ABORTED).
    expect(failed).toEqual([])
    await page.getByRole('button', { name: 'Speak' }).click()
    await page.locator('audio[aria-label="Speech"]').waitFor()
  })

  it('draws the free tier first, then the paid balance; at the 402 the offer appears and is still there 3 s later', async () => {
    const { page } = demo
    await setDevBalance({ balance: 0.05, freeTier: 0.1 })
    await page.reload()
    await expect.poll(() => shownBalance(page)).toBe('$0.05')
    const free = async () => dollars(await shownFreeTier(page))
    expect(await free()).toBe(0.1)
    await ask(page, 'First, from the free tier')
    await expect.poll(free).toBeLessThan(0.1)
    expect(await shownBalance(page)).toBe('$0.05')
    const offer = page.getByText('You are out of credits. Add credits to keep going.').first()
    for (let attempt = 0; attempt < 8 && !(await offer.isVisible()); attempt += 1)
      await ask(page, `Question ${attempt}`)
    await offer.waitFor()
    // The free tier went first; the paid balance paid for the rest.
    expect(await free()).toBe(0)
    expect(dollars(await shownBalance(page))).toBeLessThan(0.05)
    // The balance refetched after the 402 shows what is left (at most $0.0001): the offer stays.
    await page.waitForTimeout(3_000)
    expect(await offer.isVisible()).toBe(true)
    await page.screenshot({ path: join(ARTIFACTS, 'top-up-offer.png'), fullPage: true })
  })
})
