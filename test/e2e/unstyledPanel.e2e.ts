// <EchoAccount>'s panel on a page with no CSS of the app's (the README's Quickstart has none): a 402
// opens it by itself, and it must float over the page, never moving what the user is about to click.
import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { openDemo, signInThroughPages, type DemoUnderTest } from './demoHarness'

/** The README's screenshots. */
const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots')

let demo: DemoUnderTest
beforeAll(async () => {
  demo = await openDemo()
  await signInThroughPages(demo.page, demo)
})
afterAll(async () => {
  await demo?.close()
})

/** Takes every stylesheet off the page: what an app with no CSS of its own shows. */
async function withoutAppCss(page: DemoUnderTest['page']) {
  await page.evaluate(() => {
    for (const sheet of document.querySelectorAll('style, link[rel="stylesheet"]')) sheet.remove()
  })
}

describe('the account panel on a page with no CSS of its own', () => {
  it.each([
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ])(
    'at %i px: a 402 opens the panel over the page without moving it, and the next click on Ask sends the call',
    async (width, height, screen) => {
      const { page } = demo
      await page.setViewportSize({ width, height })
      await demo.setLeft({ balance: 0, freeTier: 0 })
      await page.reload()
      await page.getByRole('button', { name: /^Echo credits / }).waitFor()
      await withoutAppCss(page)
      const askButton = page.getByRole('button', { name: 'Ask', exact: true })
      const conversation = page.getByRole('list', { name: 'Conversation' })
      await page.getByLabel('Question').fill('What are Echo credits?')
      await askButton.click()
      const panel = page.getByRole('region', { name: 'Echo account' })
      await panel.waitFor()
      await expect.poll(() => conversation.getAttribute('aria-busy')).toBe('false')
      // Floating in the top layer, over the page and not beside Ask: the page is laid out as without it.
      expect(await panel.evaluate((element) => element.matches(':popover-open'))).toBe(true)
      const withPanel = await askButton.boundingBox()
      await page.screenshot({ path: join(SCREENSHOTS, `unstyled-panel-${screen}.png`) })

      // The press on Ask closes the panel and lands on Ask: the call is sent at the first click.
      await page.getByLabel('Question').fill('And how do I get more?')
      const sent = page.waitForRequest(
        (request) => request.method() === 'POST' && /\/chat\/completions$/.test(request.url()),
        {
          timeout: 5_000,
        },
      )
      await askButton.click()
      await sent
      await panel.waitFor({ state: 'detached' })
      await expect.poll(() => conversation.getAttribute('aria-busy')).toBe('false')

      // Opened and closed again, the panel moves nothing: Ask stays where it is.
      const closed = await askButton.boundingBox()
      await page.getByRole('button', { name: /^Echo credits / }).click()
      await panel.waitFor()
      expect(await askButton.boundingBox()).toEqual(closed)
      await page.keyboard.press('Escape')
      await panel.waitFor({ state: 'detached' })
      expect(await askButton.boundingBox()).toEqual(closed)
      expect(withPanel?.x).toBe(closed?.x)
    },
  )
})
