// The refresh storm of refreshStorm.mjs through Echo's own client: `EchoClient` of
// @merit-systems/echo-typescript-sdk 1.0.23 (the client echo-react-sdk 1.0.39 builds on), with an
// `OAuthTokenProvider` over the same token endpoint, the same rotating refresh token and the same
// 401s spread over 60 ms. Its HttpClient calls the global `fetch` (it takes no fetch option), so
// the request ids that spread the 401s are added by swapping the global for the storm.
import { EchoClient, OAuthTokenProvider } from '@merit-systems/echo-typescript-sdk'

import { loopbackTokens } from './loopbackTokens.mjs'

const CALLS = 1_000

export async function measureTheirRefreshStorm(baseUrl) {
  await fetch(`${baseUrl}/reset`)
  // The refresh goes out through the bare fetch, not the id-adding one swapped in below.
  const tokens = loopbackTokens(baseUrl, (input, init) => bareFetch(input, init))
  const tokenProvider = new OAuthTokenProvider({ getTokenFn: tokens.current, refreshTokenFn: tokens.refresh })
  const client = new EchoClient({ baseUrl, tokenProvider })
  const bareFetch = globalThis.fetch
  let next = 0
  globalThis.fetch = (input, init) => {
    const url = new URL(String(input))
    if (url.pathname === '/api/v1/balance') url.searchParams.set('id', String(next++))
    return bareFetch(url, init)
  }
  let outcomes
  let wallMs
  try {
    const start = performance.now()
    outcomes = await Promise.allSettled(Array.from({ length: CALLS }, () => client.balance.getBalance()))
    wallMs = performance.now() - start
  } finally {
    globalThis.fetch = bareFetch
  }
  const stats = await (await fetch(`${baseUrl}/stats`)).json()
  return {
    calls: CALLS,
    tokenCalls: stats.tokenCalls,
    failed: outcomes.filter((o) => o.status === 'rejected').length,
    succeeded: outcomes.filter((o) => o.status === 'fulfilled').length,
    rejectedByServer: stats.rejected,
    wallMs,
  }
}
