// examples/next-app built by `next build` and served by `next start`, against the local Echo: the
// browser keeps the session and carries the user's token to the app's own /api/chat, where
// echo-rtk/server verifies it and streamText (with a server-side tool) bills the user.
import { join } from 'node:path'

import type { Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { accountButton } from './demoHarness'
import { openNextApp, type NextAppUnderTest } from './nextAppHarness'

const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots')
const ACCESS_TTL_S = 6
let app: NextAppUnderTest

beforeAll(async () => {
  app = await openNextApp({ accessTtl: ACCESS_TTL_S })
}, 180_000)
afterAll(async () => {
  await app?.close()
})

const credit = async (page: Page) => Number(((await accountButton(page).textContent()) ?? '').replace(/[^\d.-]/g, ''))
const answers = (page: Page) => page.getByRole('listitem', { name: 'Assistant' })

/** Takes the page at the top, on a desktop and on a 390 px phone. */
async function screenshots(page: Page, state: string) {
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: join(SCREENSHOTS, `${state}-desktop.png`) })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: join(SCREENSHOTS, `${state}-phone.png`) })
  await page.setViewportSize({ width: 1280, height: 860 })
}

/** Asks the chat and waits for the whole answer; returns its text. */
async function ask(page: Page, question: string): Promise<string> {
  const before = await answers(page).count()
  await page.getByLabel('Question').fill(question)
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  await expect.poll(() => answers(page).count(), { timeout: 15_000 }).toBe(before + 1)
  await expect
    .poll(() => page.getByRole('list', { name: 'Conversation' }).getAttribute('aria-busy'), { timeout: 15_000 })
    .toBe('false')
  return (await answers(page).last().textContent()) ?? ''
}

/** Every call the page makes to its own /api/chat and every refresh-token request, with their statuses. */
function watchCalls(page: Page) {
  const calls: { what: 'chat' | 'refresh'; status: number | undefined; authorization: string | undefined }[] = []
  page.on('requestfinished', (request: Request) => {
    const path = new URL(request.url()).pathname
    const what =
      path === '/api/chat'
        ? 'chat'
        : path === '/api/oauth/token' && (request.postData() ?? '').includes('refresh_token')
          ? 'refresh'
          : undefined
    if (what === undefined) return
    void Promise.all([request.response(), request.allHeaders()]).then(([response, headers]) =>
      calls.push({ what, status: response?.status(), authorization: headers.authorization }),
    )
  })
  return calls
}

describe('a Next.js app whose chat runs in its own route, billed to the signed-in user', () => {
  it("signs in, holds a two-turn conversation streamed from the route with the tool's result in it, each turn billed to the user", async () => {
    const { page } = app
    await page.setViewportSize({ width: 1280, height: 860 })
    const calls = watchCalls(page)
    await page.goto(app.appUrl)
    await page.getByRole('button', { name: 'Sign in' }).waitFor()
    await screenshots(page, 'next-signed-out')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await accountButton(page).waitFor()
    await expect.poll(() => credit(page)).toBe(11)

    const first = await ask(page, 'Where is my order A1042?')
    expect(first).toContain('Looked up order A1042: shipped with Pigeon Post, arrives Thursday')
    expect(first).toContain('The tool lookUpOrder answered:')
    await expect.poll(() => credit(page), { timeout: 5_000 }).toBeLessThan(11)
    const afterFirst = await credit(page)
    const second = await ask(page, 'And order B7?')
    expect(second).toContain('packing')
    await expect.poll(() => credit(page), { timeout: 5_000 }).toBeLessThan(afterFirst)

    const chats = calls.filter((call) => call.what === 'chat')
    expect(chats.map((call) => call.status)).toEqual([200, 200])
    expect(chats.every((call) => call.authorization?.startsWith('Bearer ey'))).toBe(true)
    await screenshots(page, 'next-chat')
  })

  it('with 6-second tokens, calls keep working across several expiries, with one refresh per expiry', async () => {
    const { page } = app
    const calls = watchCalls(page)
    const start = Date.now()
    for (const question of ['Where is my order A1042?', 'And B7?', 'A1042 again?']) {
      await new Promise((wait) => setTimeout(wait, ACCESS_TTL_S * 1000))
      expect(await ask(page, question)).toContain('The tool lookUpOrder answered:')
    }
    const elapsed = (Date.now() - start) / 1000
    const refreshes = calls.filter((call) => call.what === 'refresh')
    expect(calls.filter((call) => call.what === 'chat').map((call) => call.status)).toEqual([200, 200, 200])
    expect(refreshes.every((call) => call.status === 200)).toBe(true)
    // Renewed at two thirds of the life each token answer gives, never in a burst. Echo counts
    // expires_in at answer time, a second less than the 6-second life: one refresh per 10/3 s.
    const renewEvery = ((ACCESS_TTL_S - 1) * 2) / 3
    expect(refreshes.length).toBeGreaterThanOrEqual(Math.floor(elapsed / renewEvery) - 1)
    expect(refreshes.length).toBeLessThanOrEqual(Math.ceil(elapsed / renewEvery) + 1)
  })

  it('spent to a 402: the route answers 402 and the top-up offer opens', async () => {
    const { page } = app
    await app.setLeft({ balance: 0, freeTier: 0 })
    await page.getByLabel('Question').fill('One more?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await page
      .getByRole('region', { name: 'Echo account' })
      .getByText('You are out of credits. Add credits to keep going.')
      .waitFor({ timeout: 10_000 })
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('true')
    await page.getByRole('alert').getByText('You are out of Echo credits. Add credits to keep going.').waitFor()
    // The balance refetched after the route's answer shows what is left.
    await expect.poll(() => credit(page)).toBe(0)
    await screenshots(page, 'next-out-of-credits')
    await app.setLeft({ balance: 10, freeTier: 1 })
  })
})
