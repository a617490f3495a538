// Re-renders during one silent token refresh, counted with React's Profiler in jsdom: a component
// that shows only the balance, and a useEcho() consumer. The refresh is the session's own renew
// timer, against the loopback token endpoint, on the built package.
import { JSDOM } from 'jsdom'

const APP_ID = 'bench-app'
const TOKEN_LIFETIME_S = 3

/** Makes jsdom's window the global one, as a browser page would have it (React reads globals). */
function installDom() {
  const dom = new JSDOM('<!doctype html><div id="root"></div>', { url: 'http://localhost:5173/' })
  for (const key of Object.getOwnPropertyNames(dom.window)) {
    if (!(key in globalThis)) globalThis[key] = dom.window[key]
  }
  globalThis.window = dom.window
  globalThis.document = dom.window.document
  return dom
}

/** The user oidc-client-ts would have stored after a sign-in: valid for a few more seconds. */
function storeSignedInUser(storage, apiUrl) {
  storage.setItem(
    `oidc.user:${apiUrl}:${APP_ID}`,
    JSON.stringify({
      access_token: 'access-0',
      refresh_token: 'refresh-0',
      token_type: 'Bearer',
      scope: 'llm:invoke offline_access',
      profile: { sub: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' },
      expires_at: Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_S,
    }),
  )
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export async function measureRenderCounts(baseUrl) {
  await fetch(`${baseUrl}/reset`)
  const dom = installDom()
  storeSignedInUser(dom.window.localStorage, baseUrl)
  const [{ createElement: h, Profiler }, { createRoot }, echo] = await Promise.all([
    import('react'),
    import('react-dom/client'),
    import('../dist/index.js'),
  ])
  const counts = { balance: 0, useEcho: 0 }
  let counting = false
  const count = (name) => () => {
    if (counting) counts[name] += 1
  }
  function UserName() {
    return h('p', null, echo.useEcho().user?.name ?? '')
  }
  const root = createRoot(document.getElementById('root'))
  root.render(
    h(
      echo.EchoProvider,
      { config: { appId: APP_ID, apiUrl: baseUrl } },
      h(Profiler, { id: 'balance', onRender: count('balance') }, h(echo.EchoBalance)),
      h(Profiler, { id: 'useEcho', onRender: count('useEcho') }, h(UserName)),
    ),
  )
  // Let the first renders and the balance settle, then count only across the refresh.
  await waitUntil(() => document.querySelector('[data-echo-balance-paid]')?.textContent?.startsWith('$'), 2_000)
  await sleep(100)
  counting = true
  const stats = async () => (await fetch(`${baseUrl}/stats`)).json()
  await waitUntil(async () => (await stats()).tokenCalls >= 1, TOKEN_LIFETIME_S * 1000 + 2_000)
  await sleep(300)
  counting = false
  const { tokenCalls } = await stats()
  root.unmount()
  dom.window.close()
  return { ...counts, tokenCalls }
}

async function waitUntil(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms in vain`)
    await sleep(20)
  }
}
