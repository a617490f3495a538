// The authorized fetch against bare fetch: median time of one request to a loopback server.
import { createEchoFetch } from '../dist/client.js'

const REQUESTS = 10_000
const BLOCK = 250

export async function measureFetchOverhead(baseUrl) {
  const echoFetch = createEchoFetch({ tokenProvider: { getAccessToken: async () => 'token', refreshToken: async () => 'token' } })
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

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
