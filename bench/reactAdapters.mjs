// The two React SDKs behind one shape, so that every React benchmark runs the same code on both:
// echo-rtk's built package with the repo's React, and Echo's own SDK with bench/'s React. Each
// side loads the React copy its SDK imports (one copy per page, as in an app); load only after
// installDom(), since react-dom looks for a DOM when it loads.
import { createRequire } from 'node:module'

import { APP_ID } from './bundleApp.mjs'

/** A component showing the balance, marked so that a benchmark can see it has arrived. */
function balanceView(h, balance) {
  return h('p', { 'data-bench-balance': '' }, balance ? `$${balance.balance}` : '')
}

/** echo-rtk, as an app uses it: EchoProvider, useEcho, EchoBalance, useEchoRouter. */
async function loadEchoRtk() {
  const requireFromRoot = createRequire(new URL('../package.json', import.meta.url))
  const React = requireFromRoot('react')
  const { createRoot } = requireFromRoot('react-dom/client')
  const echo = await import('../dist/index.js')
  const h = React.createElement
  return {
    name: 'echo-rtk',
    React,
    createRoot,
    provider: (baseUrl, ...children) =>
      h(echo.EchoProvider, { config: { appId: APP_ID, apiUrl: baseUrl, baseRouterUrl: baseUrl } }, ...children),
    useAuthenticated: () => echo.useEcho().status === 'authenticated',
    useUserName: () => echo.useEcho().user?.name ?? '',
    // echo-rtk's own balance component: it reads the balance slice only.
    Balance: echo.EchoBalance,
    balanceShown: (document) =>
      document.querySelector('[data-echo-balance-paid]')?.textContent?.startsWith('$') ?? false,
    // An authorized call through the React API: the provider's router shares the session's refresh.
    useAuthorizedCall: () => {
      const router = echo.useEchoRouter()
      return () => router.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
    },
    authorizedCallPath: '/chat/completions',
    authorizedCallWhat: 'useEchoRouter().chat.completions.create()',
    // The session renews a third of a token's life before its end: a 3 s token, after 2 s.
    renewsAfter2sLifetimeS: 3,
  }
}

/** @merit-systems/echo-react-sdk 1.0.39, as its README has apps use it: EchoProvider and useEcho. */
async function loadEchoReactSdk() {
  const requireFromBench = createRequire(new URL('./package.json', import.meta.url))
  const React = requireFromBench('react')
  const { createRoot } = requireFromBench('react-dom/client')
  const echo = await import('@merit-systems/echo-react-sdk')
  const h = React.createElement
  return {
    name: '@merit-systems/echo-react-sdk',
    React,
    createRoot,
    provider: (baseUrl, ...children) =>
      h(echo.EchoProvider, { config: { appId: APP_ID, baseEchoUrl: baseUrl } }, ...children),
    useAuthenticated: () => echo.useEcho().isLoggedIn,
    useUserName: () => echo.useEcho().user?.name ?? '',
    // The SDK has no balance component: useEcho() is the only way to read the balance.
    Balance: () => balanceView(h, echo.useEcho().balance),
    balanceShown: (document) => document.querySelector('[data-bench-balance]')?.textContent?.startsWith('$') ?? false,
    // The client useEcho() hands out; its refresh is react-oidc-context's signinSilent().
    useAuthorizedCall: () => {
      const { echoClient } = echo.useEcho()
      return echoClient ? () => echoClient.balance.getBalance() : null
    },
    authorizedCallPath: '/api/v1/balance',
    authorizedCallWhat: 'useEcho().echoClient.balance.getBalance()',
    // oidc-client-ts's renew timer fires 60 s before the end (automaticSilentRenew): a 62 s token, after 2 s.
    renewsAfter2sLifetimeS: 62,
  }
}

export const adapters = { 'echo-rtk': loadEchoRtk, 'echo-react-sdk': loadEchoReactSdk }
