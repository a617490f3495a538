// Re-renders during one silent token refresh, in jsdom: a component that shows only the balance,
// and a useEcho() consumer showing the user's name. The refresh is the SDK's own renew timer,
// against the loopback token endpoint; the same code runs on both SDKs. Counted twice: by React's
// DevTools rule (installRenderCounter in dom.mjs), which the table reports, and by <Profiler
// onRender>, which misses re-renders that come through a context (see dom.mjs).
import { APP_ID } from './bundleApp.mjs'
import { serverStats, sleep, storeSignedInUser, waitUntil } from './dom.mjs'

export async function measureRenderCounts(sdk, baseUrl) {
  const { React, createRoot, renderCounter } = sdk
  const h = React.createElement
  await fetch(`${baseUrl}/reset`)
  localStorage.clear()
  // A stored user whose token each SDK renews about 2 s after start.
  storeSignedInUser(localStorage, { apiUrl: baseUrl, appId: APP_ID, lifetimeS: sdk.renewsAfter2sLifetimeS })
  const profiled = { balance: 0, useEcho: 0 }
  let counting = false
  const onRender = (name) => () => {
    if (counting) profiled[name] += 1
  }
  function UserName() {
    return h('p', null, sdk.useUserName())
  }
  renderCounter.watch(sdk.Balance, 'balance')
  renderCounter.watch(UserName, 'useEcho')
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  root.render(
    sdk.provider(
      baseUrl,
      h(React.Profiler, { id: 'balance', onRender: onRender('balance') }, h(sdk.Balance)),
      h(React.Profiler, { id: 'useEcho', onRender: onRender('useEcho') }, h(UserName)),
    ),
  )
  try {
    // Let the first renders and the balance settle, then count only across the refresh.
    await waitUntil(() => sdk.balanceShown(document), 3_000, 'the balance to show')
    await sleep(100)
    if ((await serverStats(baseUrl)).tokenCalls > 0) throw new Error('the token was renewed before counting began')
    counting = true
    renderCounter.start()
    await waitUntil(async () => (await serverStats(baseUrl)).tokenCalls >= 1, 6_000, 'the silent refresh')
    await sleep(300)
    counting = false
    renderCounter.stop()
    const { tokenCalls } = await serverStats(baseUrl)
    return { ...renderCounter.counts, profiled, tokenCalls }
  } finally {
    root.unmount()
    container.remove()
  }
}
