import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'

import { startDevServer, type RunningDevServer } from '../../dev-server/startDevServer.mjs'
import {
  APP_ORIGIN,
  CookieJar,
  authorizeUrl,
  bearer,
  follow,
  letLoopbackThrough,
  makePkce,
  send,
  signIn,
} from './devServerClient'

// A server without auto-login, so the login and consent pages are shown.
let dev: RunningDevServer

beforeAll(async () => {
  dev = await startDevServer({ port: 0, routerPort: 0, autoLogin: false, streamDelayMs: 0 })
  letLoopbackThrough()
})
afterAll(() => dev.close())
beforeEach(letLoopbackThrough)

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
})

/** Checks that an HTML page links an icon, and that the icon it links is served: 200, an SVG, cacheable. */
async function expectServedIcon(page: Response) {
  expect(page.headers.get('content-type')).toMatch(/^text\/html/)
  const html = await page.text()
  const href = /<link\b[^>]*\brel="icon"[^>]*\bhref="([^"]+)"/.exec(html)?.[1]
  expect(href, `${page.url} links no icon: ${html.slice(0, 300)}`).toBeDefined()
  const icon = await fetch(new URL(href!, page.url))
  expect(icon.status).toBe(200)
  expect(icon.headers.get('content-type')).toBe('image/svg+xml')
  expect(icon.headers.get('cache-control')).toMatch(/max-age=[1-9]/)
  expect(await icon.text()).toMatch(/^<svg /)
  return html
}

/** A page reached by following redirects (never to the app). */
async function pageAt(jar: CookieJar, url: string, init: RequestInit = {}) {
  const landed = await follow(jar, url, `${APP_ORIGIN}/`, init)
  if (!(landed instanceof Response))
    throw new Error(`${url} went back to the app (${landed.href}) instead of showing a page`)
  return landed
}

// Except the router's 401 and 402 pages: Express's bare error pages, as Echo's router sends them (router.test.ts).
describe('every HTML page of the dev server links an icon it serves', () => {
  test('login, consent, the logout confirmation, signed out, and logout without a session', async () => {
    const jar = new CookieJar()
    const redirectUri = `${APP_ORIGIN}/callback`
    const loginPage = await pageAt(jar, authorizeUrl(dev, { redirectUri, challenge: makePkce().challenge }))
    const loginHtml = await expectServedIcon(loginPage.clone())
    const loginAction = new URL(/action="([^"]+\/login)"/.exec(loginHtml)![1]!, dev.apiUrl).href
    const wrongPassword = await send(jar, loginAction, form({ email: dev.testUser.email, password: 'nope' }))
    await expectServedIcon(wrongPassword)

    const consentPage = await pageAt(
      jar,
      loginAction,
      form({ email: dev.testUser.email, password: dev.testUser.password }),
    )
    const consentHtml = await expectServedIcon(consentPage)
    const confirmAction = new URL(/action="([^"]+\/confirm)"/.exec(consentHtml)![1]!, dev.apiUrl).href
    expect(await follow(jar, confirmAction, redirectUri, { method: 'POST' })).toBeInstanceOf(URL)

    const logoutPage = await send(jar, `${dev.apiUrl}/api/oauth/logout?client_id=${dev.appId}`)
    const logoutHtml = await expectServedIcon(logoutPage)
    const action = new URL(/action="([^"]+)"/.exec(logoutHtml)![1]!, dev.apiUrl).href
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(logoutHtml)![1]!
    const signedOut = await pageAt(jar, action, form({ xsrf, logout: 'yes' }))
    expect(await expectServedIcon(signedOut)).toContain('Signed out')

    // Without a session, oidc-provider answers logout with its own self-submitting form_post page.
    await expectServedIcon(await send(new CookieJar(), `${dev.apiUrl}/api/oauth/logout`))
  })

  test('the index page, checkout pages, an expired sign-in, and an OAuth error page', async () => {
    const autoLogin = await startDevServer({ port: 0, routerPort: 0, autoLogin: true })
    try {
      const token = (await signIn(autoLogin)).access_token
      const created = await fetch(`${autoLogin.apiUrl}/api/v1/stripe/payment-link`, {
        method: 'POST',
        headers: { ...bearer(token), 'Content-Type': 'application/json' },
        body: JSON.stringify({ amount: 1, successUrl: `${APP_ORIGIN}/` }),
      })
      const { paymentLink } = (await created.json()) as { paymentLink: { url: string } }

      await expectServedIcon(await fetch(`${autoLogin.apiUrl}/`))
      await expectServedIcon(await fetch(paymentLink.url))
      await fetch(paymentLink.url, { method: 'POST', redirect: 'manual' })
      await expectServedIcon(await fetch(paymentLink.url))
      await expectServedIcon(await fetch(paymentLink.url, { method: 'POST', redirect: 'manual' }))
      await expectServedIcon(await fetch(`${autoLogin.apiUrl}/checkout/plink_unknown`))
      await expectServedIcon(await fetch(`${autoLogin.apiUrl}/interaction/no-such-sign-in`))
      await expectServedIcon(
        await fetch(
          `${autoLogin.apiUrl}/api/oauth/authorize?client_id=unknown-app&response_type=code&scope=llm:invoke`,
        ),
      )
    } finally {
      await autoLogin.close()
    }
  })
})

describe('the icon itself', () => {
  test.each(['apiUrl', 'routerUrl'] as const)(
    '/favicon.ico and /favicon.svg answer 200 on the %s port, HEAD too',
    async (origin) => {
      for (const path of ['/favicon.ico', '/favicon.svg']) {
        const got = await fetch(`${dev[origin]}${path}`)
        const head = await fetch(`${dev[origin]}${path}`, { method: 'HEAD' })

        expect(got.status).toBe(200)
        expect(got.headers.get('content-type')).toBe('image/svg+xml')
        expect(await got.text()).toMatch(/^<svg [\s\S]*<\/svg>$/)
        expect(head.status).toBe(200)
        expect(head.headers.get('content-length')).toBe(got.headers.get('content-length'))
      }
    },
  )
})
