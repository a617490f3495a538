// Start-up with a valid stored session: the time from mounting the provider to the first commit
// that shows the user signed in, the requests made before that commit (a wrapper over the global
// fetch both SDKs call: sent, and answered), and how many times the probe committed before it.
// Same code on both SDKs.
import { APP_ID } from './bundleApp.mjs'
import { sleep, storeSignedInUser, waitUntil, wrapFetch } from './dom.mjs'

const WARM_UP_MOUNTS = 2
const MOUNTS = 15

export async function measureStartUp(sdk, baseUrl) {
  const runs = []
  for (let mount = 0; mount < WARM_UP_MOUNTS + MOUNTS; mount += 1) {
    const run = await mountOnce(sdk, baseUrl)
    if (mount >= WARM_UP_MOUNTS) runs.push(run)
  }
  const times = runs.map((r) => r.ms).sort((a, b) => a - b)
  return {
    mounts: MOUNTS,
    timesMs: times,
    medianMs: times[times.length >> 1],
    maxRequestsBefore: Math.max(...runs.map((r) => r.requestsBefore.length)),
    requestsBefore: [...new Set(runs.flatMap((r) => r.requestsBefore))],
    maxAnsweredBefore: Math.max(...runs.map((r) => r.answeredBefore)),
    maxCommitsBefore: Math.max(...runs.map((r) => r.commitsBefore)),
  }
}

async function mountOnce(sdk, baseUrl) {
  const { React, createRoot } = sdk
  await fetch(`${baseUrl}/reset`)
  localStorage.clear()
  storeSignedInUser(localStorage, { apiUrl: baseUrl, appId: APP_ID, lifetimeS: 900 })
  const network = wrapFetch()
  let signedIn
  let commits = 0
  let mountedAt = 0
  function Probe() {
    const authenticated = sdk.useAuthenticated()
    React.useLayoutEffect(() => {
      commits += 1
      if (authenticated && !signedIn) {
        signedIn = {
          ms: performance.now() - mountedAt,
          requestsBefore: [...network.requests],
          answeredBefore: network.answered.length,
          commitsBefore: commits - 1,
        }
      }
    })
    return null
  }
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  try {
    mountedAt = performance.now()
    root.render(sdk.provider(baseUrl, React.createElement(Probe)))
    await waitUntil(() => signedIn, 5_000, 'the provider to show the stored user signed in')
    // Let what the SDK fetches after sign-in land before the next mount counts requests.
    await sleep(150)
    return signedIn
  } finally {
    root.unmount()
    container.remove()
    network.restore()
  }
}
