// 1,000 concurrent calls whose token has expired, against a token endpoint that rotates refresh
// tokens: how many refreshes, how many failures, how long.
import { EchoClient } from '../dist/client.js'

import { loopbackTokens } from './loopbackTokens.mjs'

const CALLS = 1_000

export async function measureRefreshStorm(baseUrl) {
  await fetch(`${baseUrl}/reset`)
  const tokens = loopbackTokens(baseUrl, (input, init) => fetch(input, init))
  const tokenProvider = { getAccessToken: tokens.current, refreshToken: tokens.refresh }
  const client = new EchoClient({ apiUrl: baseUrl, tokenProvider, fetch: (input, init) => fetch(withId(input), init) })
  let next = 0
  function withId(input) {
    const url = new URL(String(input))
    url.searchParams.set('id', String(next++))
    return url
  }
  const start = performance.now()
  const outcomes = await Promise.allSettled(Array.from({ length: CALLS }, () => client.balance.get()))
  const wallMs = performance.now() - start
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
