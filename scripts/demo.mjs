// `npm run demo`: the local Echo dev server and the example app; prints the one URL to open.
// With ECHO_APP_ID set it runs the example app against the real Echo instead (ECHO_API_URL and
// ECHO_ROUTER_URL override the hosts).
import { startDemo } from './startDemo.mjs'

const realEcho = process.env.ECHO_APP_ID
  ? {
      appId: process.env.ECHO_APP_ID,
      apiUrl: process.env.ECHO_API_URL ?? 'https://echo.merit.systems',
      routerUrl: process.env.ECHO_ROUTER_URL ?? 'https://echo.router.merit.systems',
    }
  : undefined

const { readSettings } = await import('../dev-server/settings.mjs')
const demo = await startDemo({
  ...(realEcho ? { echo: realEcho } : { devServer: readSettings(process.env, []).settings }),
  appPort: Number(process.env.DEMO_PORT ?? 5173),
})

const local = demo.devServer
console.log(`
  echo-rtk demo: open ${demo.appUrl}
${
  local
    ? `
  Sign in as ${local.testUser.email} / ${local.testUser.password} (starting balance $${local.testUser.balance.toFixed(2)}).
  Local Echo: API ${local.apiUrl}, router ${local.routerUrl}, app id ${local.appId}.`
    : `
  Using Echo at ${realEcho.apiUrl} (router ${realEcho.routerUrl}), app id ${realEcho.appId}.
  Register ${demo.appUrl} as a redirect URI of that app.`
}
  Ctrl+C stops it.
`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    void demo.close().then(() => process.exit(0))
  })
}
