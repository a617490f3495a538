// The authorized fetches against bare fetch: median time of one request to a loopback server.
import { createEchoFetch } from '../dist/client.js'

const REQUESTS = 10_000
const BLOCK = 250
const tokens = { getAccessToken: async () => 'token', refreshToken: async () => 'token' }

/** `createEchoFetch` (echo-rtk/client) against bare `fetch`. */
export function measureFetchOverhead(baseUrl) {
  return measureOverhead(baseUrl, createEchoFetch({ tokenProvider: tokens }))
}

/**
 * `useEchoFetch()`'s function (`store.dispatch(getEchoFetch())`) against bare `fetch`: the
 * session's token, the origin guard, the 402 watch and the balance refetch when each body ends.
 * The loopback server is the session's API and router both, so every answer is watched.
 */
export async function measureSessionFetchOverhead(baseUrl) {
  const { createEchoStore, getEchoFetch, stopEchoSession } = await import('../dist/index.js')
  // The server's own first tokens, so the balance the session loads by itself is answered.
  await fetch(`${baseUrl}/reset`)
  const storage = memoryStorage()
  storage.setItem(
    `oidc.user:${baseUrl}:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f55`,
    JSON.stringify({
      access_token: 'access-0',
      refresh_token: 'refresh-0',
      token_type: 'Bearer',
      profile: { sub: 'user-1' },
      expires_at: Math.floor(Date.now() / 1000) + 3600,
    }),
  )
  const store = createEchoStore({
    config: {
      appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f55',
      apiUrl: baseUrl,
      baseRouterUrl: baseUrl,
      redirectUri: 'http://localhost:5173',
    },
    startSession: true,
    environment: {
      location: { href: 'http://localhost:5173/' },
      history: { state: null, replaceState: () => undefined },
      storage,
      navigate: () => undefined,
      fetch: (input, init) => fetch(input, init),
      locks: undefined,
      openChannel: undefined,
      onStorage: () => () => undefined,
      onPageSignal: () => () => undefined,
      afterPaint: (run) => queueMicrotask(run),
      now: () => Date.now(),
      setTimeout: (run, ms) => setTimeout(run, ms),
      clearTimeout: (handle) => clearTimeout(handle),
      logError: () => undefined,
    },
  })
  if (store.getState().echo.auth.status !== 'authenticated')
    throw new Error('the benchmark session did not start signed in')
  try {
    return await measureOverhead(baseUrl, store.dispatch(getEchoFetch()))
  } finally {
    store.dispatch(stopEchoSession())
    await fetch(`${baseUrl}/reset`)
  }
}

async function measureOverhead(baseUrl, echoFetch) {
  const bare = (url) => fetch(url, { headers: { Authorization: 'Bearer token' } })
  const timings = { bare: [], echo: [] }
  const timeOne = async (send, into) => {
    const start = process.hrtime.bigint()
    const response = await send(`${baseUrl}/ping`)
    await response.arrayBuffer()
    into?.push(Number(process.hrtime.bigint() - start) / 1e3)
  }
  for (let i = 0; i < 1_000; i += 1) {
    await timeOne(bare)
    await timeOne(echoFetch)
  }
  // Interleaved blocks, so drift on the machine falls on both sides alike.
  for (let done = 0; done < REQUESTS; done += BLOCK) {
    for (let i = 0; i < BLOCK; i += 1) await timeOne(bare, timings.bare)
    for (let i = 0; i < BLOCK; i += 1) await timeOne(echoFetch, timings.echo)
  }
  const bareMedian = median(timings.bare)
  const echoMedian = median(timings.echo)
  return { requests: REQUESTS, bareMedianUs: bareMedian, echoMedianUs: echoMedian, ratio: echoMedian / bareMedian }
}

function memoryStorage() {
  const items = new Map()
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size
    },
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
