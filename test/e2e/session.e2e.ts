import type { Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { accountButton, openAccount, openDemo, signInThroughPages, type DemoUnderTest } from './demoHarness'

const ACCESS_TTL_S = 15
let demo: DemoUnderTest
beforeAll(async () => {
  demo = await openDemo({ accessTtl: ACCESS_TTL_S })
})
afterAll(async () => {
  await demo?.close()
})

/** Every refresh-token request a page sends, with the status it got. */
function watchRefreshes(page: Page) {
  const refreshes: { at: number; status: number | undefined }[] = []
  page.on('requestfinished', (request: Request) => {
    if (!request.url().endsWith('/api/oauth/token') || !(request.postData() ?? '').includes('grant_type=refresh_token'))
      return
    void request.response().then((response) => refreshes.push({ at: Date.now(), status: response?.status() }))
  })
  return refreshes
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a session with 15-second access tokens', () => {
  it('outlives several expiries with exactly one token request per expiry', async () => {
    const { page } = demo
    const refreshes = watchRefreshes(page)
    await signInThroughPages(page, demo)
    // Each token is renewed once, a third of its life before it ends. Echo counts expires_in at
    // answer time, a second less than the 15 s, so at about 9 s of 14: three tokens in 32 s
    // (a fourth would come after 34 s), each replaced by exactly one refresh, never zero, never a burst.
    await pause(32_000)
    expect(refreshes.map((refresh) => refresh.status)).toEqual([200, 200, 200])
    const gaps = refreshes.slice(1).map((refresh, index) => refresh.at - refreshes[index]!.at)
    const renewEvery = ((ACCESS_TTL_S - 1) * 2) / 3
    for (const gap of gaps) expect(gap).toBeGreaterThan((renewEvery - 1) * 1000)
    await accountButton(page).waitFor()
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await page.getByRole('listitem', { name: 'Assistant' }).first().waitFor()
  })

  it('in two tabs, refreshing in both logs neither out (refresh tokens rotate), and a sign-out in one signs the other out', async () => {
    const first = demo.page
    const second = await demo.browser.newPage()
    const refreshes = [...[first, second].map(watchRefreshes)]
    await second.goto(demo.appUrl)
    await accountButton(second).waitFor()
    await pause(25_000)
    const all = refreshes.flat()
    // Both tabs' timers fire; under the cross-tab lock one refreshes and the other takes its tokens.
    expect(all.length).toBeGreaterThanOrEqual(2)
    expect(all.length).toBeLessThanOrEqual(3)
    expect(all.map((refresh) => refresh.status)).toEqual(all.map(() => 200))
    for (const page of [first, second]) await accountButton(page).waitFor({ timeout: 2_000 })
    await (await openAccount(second)).getByRole('button', { name: 'Sign out' }).click()
    await first.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ timeout: 5_000 })
    await second.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
  })
})
