import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

import { chromium, type BrowserContext, type Page } from 'playwright-core'

import { startDevServer, type RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { CHROMIUM, CHROMIUM_ARGS } from './demoHarness'

const REPO = resolve(import.meta.dirname, '../..')
const NEXT_APP = join(REPO, 'examples/next-app')
const NEXT_BIN = join(REPO, 'node_modules/next/dist/bin/next')

export interface NextAppUnderTest {
  appUrl: string
  /** The local Echo now (a new one after `restartEcho()`). */
  readonly dev: RunningDevServer
  browser: BrowserContext
  page: Page
  /** Another browser, a fresh profile of its own (closed with the app). */
  newBrowser(): Promise<BrowserContext>
  /** Stops the local Echo and starts a new one on the same ports: every grant and token is gone. */
  restartEcho(): Promise<void>
  /** A dev-server control: sets what is left of the paid balance and the free tier. */
  setLeft(left: { balance?: number; freeTier?: number }): Promise<void>
  close(): Promise<void>
}

/** Runs `command` to its end, failing with its output when it fails. */
function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', (code) =>
      code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)),
    )
  })
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}

/** Waits until `url` answers (any status), or fails after `ms`. */
async function answering(url: string, ms: number, server: ChildProcess): Promise<void> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`)
    const answered = await fetch(url).then(
      () => true,
      () => false,
    )
    if (answered) return
    await new Promise((wait) => setTimeout(wait, 200))
  }
  throw new Error(`${url} did not answer within ${ms} ms`)
}

/** Whether dist/ was built after every file it is built from last changed. */
function isBuildFresh(): boolean {
  const built = join(REPO, 'dist/index.d.ts')
  if (!existsSync(built)) return false
  const sources = readdirSync(join(REPO, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
  const newest = Math.max(
    ...[...sources, join(REPO, 'tsup.config.ts'), join(REPO, 'package.json')].map((file) => statSync(file).mtimeMs),
  )
  return statSync(built).mtimeMs >= newest
}

/**
 * examples/next-app as a user ships it: echo-rtk built (`tsup`), the app built by `next build` and
 * served by `next start`, against the local Echo; and a headless Chromium with a fresh profile.
 */
export async function openNextApp({ accessTtl = 900 } = {}): Promise<NextAppUnderTest> {
  const env = { NEXT_TELEMETRY_DISABLED: '1' }
  // Built again only when a source is newer than the build: `npm test` has just built it, and other steps read
  // dist/ at the same time (the peer matrix, a server in a child process), which a rebuild empties first.
  if (!isBuildFresh())
    await run(process.execPath, [join(REPO, 'node_modules/tsup/dist/cli-default.js')], { cwd: REPO, env })
  await run(process.execPath, [NEXT_BIN, 'build'], { cwd: NEXT_APP, env })
  let dev = await startDevServer({
    port: 0,
    routerPort: 0,
    accessTtl,
    autoLogin: true,
    refreshGrace: false,
    codeReplay: false,
    streamDelayMs: 20,
  })
  const port = await freePort()
  const server = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: NEXT_APP,
    env: {
      ...process.env,
      ...env,
      ECHO_APP_ID: dev.appId,
      ECHO_API_URL: dev.apiUrl,
      ECHO_ROUTER_URL: dev.routerUrl,
      ECHO_SESSION_SECRET: randomBytes(32).toString('base64'),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const appUrl = `http://127.0.0.1:${port}`
  const profile = await mkdtemp(join(tmpdir(), 'echo-rtk-next-'))
  const others: { context: BrowserContext; profile: string }[] = []
  const stop = async () => {
    for (const other of others.splice(0)) {
      await other.context.close()
      await rm(other.profile, { recursive: true, force: true })
    }
    if (server.exitCode === null) {
      const exited = new Promise((done) => server.once('exit', done))
      server.kill('SIGTERM')
      await exited
    }
    await dev.close()
    await rm(profile, { recursive: true, force: true })
  }
  try {
    await answering(appUrl, 30_000, server)
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    })
    return {
      appUrl,
      get dev() {
        return dev
      },
      browser,
      newBrowser: async () => {
        const otherProfile = await mkdtemp(join(tmpdir(), 'echo-rtk-next-'))
        const context = await chromium.launchPersistentContext(otherProfile, {
          executablePath: CHROMIUM,
          headless: true,
          args: CHROMIUM_ARGS,
        })
        others.push({ context, profile: otherProfile })
        return context
      },
      restartEcho: async () => {
        const { settings } = dev
        const ports = { port: Number(new URL(dev.apiUrl).port), routerPort: Number(new URL(dev.routerUrl).port) }
        await dev.close()
        dev = await startDevServer({ ...settings, ...ports })
      },
      page: browser.pages()[0] ?? (await browser.newPage()),
      setLeft: async (left) => {
        const response = await fetch(`${dev.apiUrl}/dev/balance`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(left),
        })
        if (!response.ok) throw new Error(`/dev/balance answered ${response.status}`)
      },
      close: async () => {
        await browser.close()
        await stop()
      },
    }
  } catch (error) {
    await stop()
    throw error
  }
}
