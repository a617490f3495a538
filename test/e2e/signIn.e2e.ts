import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import {
  accountButton,
  ARTIFACTS,
  askOnce,
  openAccount,
  openDemo,
  shownBalance,
  signInThroughPages,
  type DemoUnderTest,
} from './demoHarness'
import { containing, probeContext } from './pageProbe'

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

describe('browser mode, as a script injected into the page sees it', () => {
  it('finds the tokens, the code and the verifier: the probe that finds nothing in server mode is known to look', async () => {
    const { page } = demo
    await page.goto(demo.appUrl)
    await (await openAccount(page)).getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    const probe = await probeContext(demo.browser)
    const probed = await demo.browser.newPage()
    await signInThroughPages(probed, demo)
    await probed.reload()
    await accountButton(probed).waitFor()
    await askOnce(probed, 'Hello?')
    const { accessTokens, refreshTokens, codes, verifiers } = demo.secretsSeen
    const found = containing(await probe.seen(demo.browser.pages()), {
      'access token': accessTokens,
      'refresh token': refreshTokens,
      'authorization code': codes,
      'PKCE verifier': verifiers,
    })
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^access token in fetch$/),
        expect.stringMatching(/^refresh token in localStorage oidc\.user:/),
        expect.stringMatching(/^authorization code in location at load$/),
        expect.stringMatching(/^authorization code in postMessage heard$/),
        expect.stringMatching(/^PKCE verifier in storage write oidc\./),
        expect.stringMatching(/^access token in store action$/),
      ]),
    )
    await probed.close()
  })
})
