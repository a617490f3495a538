// The dev server in a child process, for tests that run in jsdom: oidc-provider's crypto refuses
// jsdom's typed arrays, so the server runs under plain Node beside the test.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

import type { DevServerSettings, RunningDevServer } from '../../dev-server/startDevServer.mjs'

const START = `
import(process.argv[1]).then(async ({ startDevServer }) => {
  const dev = await startDevServer(JSON.parse(process.argv[2]))
  const { close, ...shown } = dev
  process.stdout.write(JSON.stringify(shown) + '\\n')
  process.on('SIGTERM', () => void close().then(() => process.exit(0)))
})
`

/**
 * How long a test file's `beforeAll` may wait for the dev server: its child process loads
 * oidc-provider and makes an RSA key, which on two busy cores (the whole suite at once) has taken
 * more than vitest's 10 s hook default.
 */
export const DEV_SERVER_START_MS = 60_000

/**
 * Starts the dev server (free ports) in a child process; `close()` stops it. Echo's leniencies are
 * off unless asked for (a reused code or refresh token revokes the grant), as these tests were written.
 */
export function startDevServerProcess(settings: Partial<DevServerSettings> = {}): Promise<RunningDevServer> {
  // From the repo root (where vitest runs): under jsdom, import.meta.url is not a file URL.
  const entry = resolve('dev-server/startDevServer.mjs')
  const resolved = {
    port: 0,
    routerPort: 0,
    autoLogin: true,
    streamDelayMs: 0,
    refreshGrace: false,
    codeReplay: false,
    ...settings,
  }
  const child = spawn(process.execPath, ['--input-type=module', '-e', START, entry, JSON.stringify(resolved)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((started, reject) => {
    let text = ''
    child.once('exit', (code) => reject(new Error(`the dev server exited with ${code}`)))
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const line = text.split('\n').find((candidate) => candidate.startsWith('{'))
      if (line === undefined) return
      const shown = JSON.parse(line) as Omit<RunningDevServer, 'close'>
      started({
        ...shown,
        close: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      })
    })
  })
}
