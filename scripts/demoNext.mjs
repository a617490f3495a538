// `npm run demo:next`: the local Echo dev server and examples/next-app (`next dev`) in server mode: the
// app's server holds the user's session in an HttpOnly cookie, and its chat runs in its own route
// through echo-rtk/server; builds echo-rtk first (the example uses dist/).
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'

import { run } from './run.mjs'

const repo = fileURLToPath(new URL('..', import.meta.url))
if ((await run('npm', ['run', '--silent', 'build'])) !== 0) process.exit(1)

const { readSettings } = await import('../dev-server/settings.mjs')
const { startDevServer } = await import('../dev-server/startDevServer.mjs')
const dev = await startDevServer(readSettings(process.env, []).settings)
const port = Number(process.env.DEMO_PORT ?? 3000)
const next = spawn(
  process.execPath,
  [`${repo}node_modules/next/dist/bin/next`, 'dev', '-p', String(port), '-H', '127.0.0.1'],
  {
    cwd: `${repo}examples/next-app`,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      ECHO_APP_ID: dev.appId,
      ECHO_API_URL: dev.apiUrl,
      ECHO_ROUTER_URL: dev.routerUrl,
      // The server-held session's cookie is sealed with this; a demo makes up its own at each start.
      ECHO_SESSION_SECRET: process.env.ECHO_SESSION_SECRET ?? randomBytes(32).toString('base64'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
)

console.log(`
  echo-rtk on Next.js: open http://127.0.0.1:${port} (the first page takes a few seconds to compile)

  Sign in as ${dev.testUser.email} / ${dev.testUser.password}, then ask "Where is my order A1042?":
  the model runs in app/api/chat/route.ts, its tool reads the shop's order book there, and the
  call is billed to you. Your session is held by the app's server (app/api/echo/[...echo]/route.ts):
  the page holds no token. Local Echo: API ${dev.apiUrl}, router ${dev.routerUrl}.
  Ctrl+C stops it.
`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    next.kill('SIGTERM')
    void dev.close().then(() => process.exit(0))
  })
}
