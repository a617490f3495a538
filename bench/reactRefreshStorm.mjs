// The refresh storm through each SDK's React API, as an app meets it: the provider restores a
// stored session, the server then forgets its access token (as if it had expired), and 1,000
// authorized calls start at once through what the SDK hands components. The 401s are spread over
// 60 ms as in refreshStorm.mjs; the refresh is whatever the SDK does on a 401.
import { APP_ID } from './bundleApp.mjs'
import { bareFetch, serverStats, sleep, storeSignedInUser, waitUntil, wrapFetch } from './dom.mjs'

const CALLS = 1_000
const STORM_TIMEOUT_MS = 60_000

export async function measureReactRefreshStorm(sdk, baseUrl) {
  const { React, createRoot } = sdk
  await bareFetch(`${baseUrl}/reset`)
  localStorage.clear()
  storeSignedInUser(localStorage, { apiUrl: baseUrl, appId: APP_ID, lifetimeS: 900 })
  const holder = { call: null }
  function Caller() {
    holder.call = sdk.useAuthorizedCall()
    return null
  }
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  root.render(sdk.provider(baseUrl, React.createElement(Caller)))
  let network
  try {
    await waitUntil(() => holder.call, 5_000, 'the provider to hand out an authorized client')
    // Let the requests of the sign-in settle, then expire the token on the server's side.
    await sleep(500)
    await bareFetch(`${baseUrl}/expire`)
    network = wrapFetch({ tagPaths: [sdk.authorizedCallPath] })
    const call = holder.call
    const start = performance.now()
    const outcomes = await Promise.race([
      Promise.allSettled(Array.from({ length: CALLS }, () => call())),
      sleep(STORM_TIMEOUT_MS).then(() => {
        throw new Error(`the ${CALLS} calls had not ended after ${STORM_TIMEOUT_MS} ms`)
      }),
    ])
    const wallMs = performance.now() - start
    const failures = outcomes.filter((o) => o.status === 'rejected')
    const stats = await serverStats(baseUrl)
    return {
      calls: CALLS,
      what: sdk.authorizedCallWhat,
      tokenCalls: stats.tokenCalls,
      succeeded: outcomes.length - failures.length,
      failed: failures.length,
      rejectedByServer: stats.rejected,
      firstError: failures[0] ? String(failures[0].reason?.message ?? failures[0].reason).slice(0, 160) : null,
      wallMs,
    }
  } finally {
    network?.restore()
    root.unmount()
    container.remove()
  }
}
