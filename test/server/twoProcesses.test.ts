// Two server processes behind one session: examples/node-server run twice with the same secret, a
// proxy in front sending each request to the next process in turn, and one browser's cookie jar.
// The cookie is the whole session, so either process serves it: the sign-in leaves from one and comes
// back to the other, calls alternate, and both renew the same expired token at once (inside Echo's
// rotation grace), after which the session goes on. Needs the built package (dist/).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { join, resolve } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startDevServer, type RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { CookieJar, follow, letLoopbackThrough, send } from '../dev-server/devServerClient'

const REPO = resolve(import.meta.dirname, '../..')
const ACCESS_TTL_S = 3
let dev: RunningDevServer
let servers: { process: ChildProcess; port: number; served: number }[] = []
let proxy: Server
let app: string

/** Starts examples/node-server on a free port; resolves once it listens. */
function startServer(env: Record<string, string>): Promise<{ process: ChildProcess; port: number; served: number }> {
  return new Promise((resolveStarted, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'examples/node-server/server.mjs')], {
      cwd: REPO,
      env: { ...process.env, ...env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    child.once('exit', (code) => reject(new Error(`examples/node-server exited with ${code}`)))
    child.stdout.on('data', (chunk: Buffer) => {
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(chunk.toString())?.[1]
      if (port !== undefined) resolveStarted({ process: child, port: Number(port), served: 0 })
    })
  })
}

beforeAll(async () => {
  dev = await startDevServer({ port: 0, routerPort: 0, accessTtl: ACCESS_TTL_S, autoLogin: true, streamDelayMs: 1 })
  const env = {
    ECHO_APP_ID: dev.appId,
    ECHO_API_URL: dev.apiUrl,
    ECHO_ROUTER_URL: dev.routerUrl,
    ECHO_SESSION_SECRET: randomBytes(32).toString('base64'),
  }
  servers = await Promise.all([startServer(env), startServer(env)])
  // Round robin: each request goes to the next process, the browser's Host header kept.
  let next = 0
  proxy = createServer((incoming, outgoing) => {
    const target = servers[next++ % servers.length]!
    target.served += 1
    const forward = httpRequest(
      { host: '127.0.0.1', port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    incoming.pipe(forward)
  })
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening))
  app = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`
}, 30_000)

afterAll(async () => {
  for (const { process: child } of servers) {
    child.removeAllListeners('exit')
    child.kill()
  }
  await new Promise((closed) => proxy?.close(closed))
  await dev?.close()
})

describe.runIf(existsSync(join(REPO, 'dist/server.js')))('two server processes behind one session', () => {
  it('sign-in leaves from one and comes back to the other; calls and a renewal at once on both keep working', async () => {
    letLoopbackThrough()
    const jar = new CookieJar()
    const same = { 'sec-fetch-site': 'same-origin' }
    const back = await follow(jar, `${app}/api/echo/signin?returnTo=/`, `${app}/api/echo/callback`)
    if (!(back instanceof URL)) throw new Error(`sign-in ended on a page: ${back.status}`)
    const callback = await send(jar, back.href)
    expect([callback.status, callback.headers.get('location')]).toEqual([302, '/'])
    expect(servers.map(({ served }) => served)).toEqual([1, 1])

    const session = await send(jar, `${app}/api/echo/session`, { headers: same })
    expect(await session.json()).toMatchObject({ user: { email: dev.testUser.email } })
    const balances = await Promise.all([1, 2].map(() => send(jar, `${app}/api/echo/api/v1/balance`, { headers: same })))
    expect(balances.map(({ status }) => status)).toEqual([200, 200])

    // The token expires; the next two calls, one on each process, carry the same cookie and both renew it.
    await new Promise((wait) => setTimeout(wait, ACCESS_TTL_S * 1000))
    const issuedBefore = dev.secretsSeen.accessTokens.size
    const servedBefore = servers.map(({ served }) => served)
    const asks = await Promise.all(
      ['Hello?', 'Anyone?'].map((question) =>
        send(jar, `${app}/api/ask`, {
          method: 'POST',
          headers: { ...same, origin: app, 'Content-Type': 'application/json' },
          body: JSON.stringify({ question }),
        }),
      ),
    )
    expect(asks.map(({ status }) => status)).toEqual([200, 200])
    expect(servers.map(({ served }, index) => served - servedBefore[index]!)).toEqual([1, 1])
    expect(dev.secretsSeen.accessTokens.size - issuedBefore).toBe(2)
    for (const answer of asks) expect(answer.headers.getSetCookie().join()).toMatch(/echo_rtk_/)
    // Whichever renewed cookie the browser kept, the session goes on, on both processes.
    const after = await Promise.all([1, 2].map(() => send(jar, `${app}/api/echo/api/v1/balance`, { headers: same })))
    expect(after.map(({ status }) => status)).toEqual([200, 200])
    // It waits out a real token's life (3 s) and signs in across two child processes: slower on a loaded machine.
  }, 20_000)
})
