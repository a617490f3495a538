#!/usr/bin/env node
// `npm run dev-server`: reads the settings from environment variables and flags, starts the dev
// server, prints where everything is, and stops cleanly on Ctrl+C (SIGINT) or SIGTERM.

import { formatUsd } from './ledger/checkout.mjs'
import { DEMO_FREE_TIER, OAUTH_PATHS, REFERRAL_CODE } from './fixtures.mjs'
import { readSettings, usage } from './settings.mjs'

let parsed
try {
  parsed = readSettings(process.env, process.argv.slice(2))
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage()}`)
  process.exit(2)
}
if (parsed.help) {
  console.log(usage())
  process.exit(0)
}

/** @type {import('./startDevServer.mjs').RunningDevServer} */
let server
try {
  // Loaded only now, so --help and a bad setting answer without oidc-provider's start-up notices.
  const { startDevServer } = await import('./startDevServer.mjs')
  server = await startDevServer(parsed.settings)
} catch (error) {
  console.error(`The Echo dev server could not start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}

const { apiUrl, routerUrl, appId, testUser, settings } = server
const onOff = (/** @type {boolean} */ on) => (on ? 'on' : 'off')
const models = settings.modelsRoute ? 'models, ' : ''
const leniencies = `refresh-token grace ${onOff(settings.refreshGrace)}, code replay ${onOff(settings.codeReplay)}`
console.log(`
Echo dev server (local, Echo-compatible)

  API and OAuth    ${apiUrl}
                   authorize ${apiUrl}${OAUTH_PATHS.authorization}
                   token     ${apiUrl}${OAUTH_PATHS.token}
                   userinfo  ${apiUrl}${OAUTH_PATHS.userinfo}
                   jwks      ${apiUrl}${OAUTH_PATHS.jwks}
                   logout    ${apiUrl}${OAUTH_PATHS.endSession}
                   /api/v1/* (balance, free tier, apps, ${models}payment links, user, referral)
  Router           ${routerUrl}
  Demo app id      ${appId}${settings.appIds.length > 0 ? `\n  Your app ids     ${settings.appIds.join(', ')}` : ''}
  Test user        ${testUser.email} / password: ${testUser.password}
  Balance          ${formatUsd(testUser.balance)} to start; referral code ${REFERRAL_CODE}
  Free tier        ${formatUsd(DEMO_FREE_TIER.spendLimit)} for the demo app, drawn before the balance (as Echo's router does)
  Access tokens    ${settings.accessTtl} s; auto-login ${settings.autoLogin ? 'on' : 'off'}; stream delay ${settings.streamDelayMs} ms
  As Echo          ${leniencies} (off: stricter)
  Set what is left POST ${apiUrl}/dev/balance {"balance": 0.05, "freeTier": 0} (a dev control, not part of Echo)

Press Ctrl+C to stop.
`)

let stopping = false
/** @param {NodeJS.Signals} signal */
const stop = (signal) => {
  if (stopping) return
  stopping = true
  console.log(`\n${signal}: stopping the Echo dev server...`)
  const force = setTimeout(() => process.exit(1), 5000)
  force.unref()
  void server.close().then(() => {
    console.log('Stopped.')
    process.exit(0)
  })
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
