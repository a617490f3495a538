// The bundle of the same minimal app on echo-rtk (the built package, as an app imports it) and on
// Echo's own React SDK (bench/node_modules, as an app with only that SDK installed has it).
import { fileURLToPath } from 'node:url'

import { bundleApp } from './bundleApp.mjs'
import { BENCH_NODE_MODULES, ECHO_REACT_SDK } from './echoSdk.mjs'

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * The bundle budgets (docs/performance.md): a returning signed-in user's first load, the whole app
 * with the sign-in chunk, and echo-rtk's own code in the first load.
 */
export const BUDGET = { firstLoadGzip: 40_000, wholeGzip: 48_000, ownFirstLoadGzip: 11_000 }

/**
 * echo-rtk: the whole bundle, and again with every dependency external (its own code); `session: 'server'`
 * measures the same app in server mode (the app's own server holds the session).
 */
export async function measureOurBundle({ session = 'browser' } = {}) {
  const ours = { packageName: 'echo-rtk', packageDir: REPO_ROOT, session }
  return { total: await bundleApp(ours), own: await bundleApp({ ...ours, ownCodeOnly: true }) }
}

export async function measureTheirBundle() {
  const theirs = { packageName: ECHO_REACT_SDK, nodeModulesDir: BENCH_NODE_MODULES }
  return { total: await bundleApp(theirs), own: await bundleApp({ ...theirs, ownCodeOnly: true }) }
}

/** `oidc-client-ts 67.7 kB, @reduxjs/toolkit 53.5 kB, ...`: minified bytes per package. */
export function formatBreakdown(packages) {
  return packages.map((p) => `${p.name} ${(p.bytes / 1000).toFixed(1)} kB`).join(', ')
}
