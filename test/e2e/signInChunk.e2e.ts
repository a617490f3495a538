// The sign-in code (oidc-client-ts's OidcClient: PKCE, the authorize request, the code exchange) is a
// chunk of its own that a returning, signed-in user's page never downloads. The demo, built for
// production by Vite as an app builds it, served, in Chromium against the local Echo.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { build, preview, type PreviewServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startDevServer, type RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { accountButton, CHROMIUM, CHROMIUM_ARGS, openAccount } from './demoHarness'

const DEMO_CONFIG = fileURLToPath(new URL('../../examples/react-app/vite.config.ts', import.meta.url))

let dev: RunningDevServer
let site: PreviewServer
let appUrl: string
let browser: BrowserContext
let profile: string
let outDir: string

beforeAll(async () => {
  dev = await startDevServer({ port: 0, routerPort: 0, autoLogin: true, refreshGrace: false, codeReplay: false })
  outDir = await mkdtemp(join(tmpdir(), 'echo-rtk-demo-build-'))
  const define = {
    'import.meta.env.VITE_ECHO_APP_ID': JSON.stringify(dev.appId),
    'import.meta.env.VITE_ECHO_API_URL': JSON.stringify(dev.apiUrl),
    'import.meta.env.VITE_ECHO_ROUTER_URL': JSON.stringify(dev.routerUrl),
  }
  await build({ configFile: DEMO_CONFIG, define, logLevel: 'error', build: { outDir, emptyOutDir: true } })
  site = await preview({
    configFile: DEMO_CONFIG,
    define,
    logLevel: 'error',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1' },
  })
  appUrl = (site.resolvedUrls?.local[0] ?? '').replace(/\/$/, '')
  profile = await mkdtemp(join(tmpdir(), 'echo-rtk-e2e-'))
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
  await dev?.close()
  await rm(profile, { recursive: true, force: true })
  await rm(outDir, { recursive: true, force: true })
})

/** The scripts a page asks for while `act` runs, by file name. */
async function scriptsLoaded(page: Page, act: () => Promise<void>): Promise<string[]> {
  const scripts: string[] = []
  const record = (request: { url(): string; resourceType(): string }) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname.split('/').pop() ?? '')
  }
  page.on('request', record)
  try {
    await act()
  } finally {
    page.off('request', record)
  }
  return scripts
}

const isSignInChunk = (file: string) => file.startsWith('signIn-')

describe('the sign-in chunk, in a production build', () => {
  it('is built apart from the page, and holds the code exchange', async () => {
    const { readdir, readFile } = await import('node:fs/promises')
    const assets = await readdir(join(outDir, 'assets'))
    const chunk = assets.find(isSignInChunk)
    expect(chunk).toBeDefined()
    expect(await readFile(join(outDir, 'assets', chunk!), 'utf8')).toContain('processSigninResponse')
    const page = assets.find((file) => file.startsWith('index-') && file.endsWith('.js'))!
    expect(await readFile(join(outDir, 'assets', page), 'utf8')).not.toContain('processSigninResponse')
  })

  it('is loaded when someone signs in, by the page that signs in: the sign-in window hands its answer over without it', async () => {
    const page = browser.pages()[0] ?? (await browser.newPage())
    const inSignInWindow: string[] = []
    page.once('popup', (popup) =>
      popup.on('request', (request) => {
        if (request.resourceType() === 'script') inSignInWindow.push(new URL(request.url()).pathname.split('/').pop()!)
      }),
    )
    const loaded = await scriptsLoaded(page, async () => {
      await page.goto(appUrl)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await accountButton(page).waitFor()
    })
    // Once: the page makes the authorize request and, with the code the window hands back, the exchange.
    expect(loaded.filter(isSignInChunk)).toHaveLength(1)
    expect(inSignInWindow.some((file) => file.startsWith('index-'))).toBe(true)
    expect(inSignInWindow.filter(isSignInChunk)).toEqual([])
  })

  it("is never downloaded by a returning, signed-in user's page", async () => {
    const page = await browser.newPage()
    const loaded = await scriptsLoaded(page, async () => {
      await page.goto(appUrl)
      await accountButton(page).waitFor()
      // Long enough for anything loaded after the first paint (the balance, a renew) to have come.
      await page.waitForTimeout(2_000)
    })
    expect(loaded.some((file) => file.startsWith('index-'))).toBe(true)
    expect(loaded.filter(isSignInChunk)).toEqual([])
    // ... and loads it the moment the user signs in again.
    await (await openAccount(page)).getByRole('button', { name: 'Sign out' }).click()
    const again = await scriptsLoaded(page, async () => {
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await accountButton(page).waitFor()
    })
    expect(again.filter(isSignInChunk)).toHaveLength(1)
  })
})
