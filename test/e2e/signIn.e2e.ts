import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import {
  accountButton,
  ARTIFACTS,
  openAccount,
  openDemo,
  shownBalance,
  signInThroughPages,
  type DemoUnderTest,
} from './demoHarness'

let demo: DemoUnderTest
beforeAll(async () => {
  demo = await openDemo()
})
afterAll(async () => {
  await demo?.close()
})

describe('signing in to the demo through the real pages', () => {
  it('goes through Echo login and consent, and comes back signed in with the balance, shown once: no figure before the total', async () => {
    const { page } = demo
    // Every text the header's credit shows, in order, from the page's first paint.
    await page.addInitScript(() => {
      const shown: string[] = []
      ;(window as unknown as { creditsShown: string[] }).creditsShown = shown
      new MutationObserver(() => {
        const text = document.querySelector('[data-echo-account-button]')?.textContent?.trim()
        if (text !== undefined && text !== shown.at(-1)) shown.push(text)
      }).observe(document, { subtree: true, childList: true, characterData: true })
    })
    await signInThroughPages(page, demo)
    await expect.poll(() => accountButton(page).textContent()).toBe(' $11.00')
    expect(await page.evaluate(() => (window as unknown as { creditsShown: string[] }).creditsShown)).toEqual([
      '…',
      '$11.00',
    ])
    expect(await (await openAccount(page)).locator('[data-echo-account-user]').textContent()).toBe(
      `Signed in as ${demo.testUser.name}`,
    )
    await page.keyboard.press('Escape')
    const address = new URL(page.url())
    expect(address.searchParams.has('code')).toBe(false)
    expect(address.searchParams.has('state')).toBe(false)
    await expect.poll(() => shownBalance(page)).toBe('$10.00')
    await page.screenshot({ path: join(ARTIFACTS, 'signed-in.png'), fullPage: true })
  })

  it('keeps the session across a reload, with no sign-in page', async () => {
    const { page } = demo
    const visited: string[] = []
    page.on('framenavigated', (frame) => visited.push(frame.url()))
    await page.reload()
    await accountButton(page).waitFor()
    expect(visited.filter((url) => url.startsWith(demo.apiUrl))).toEqual([])
  })
})
