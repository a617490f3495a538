// Streaming latency: the time from a server-sent event being written to the socket to that event
// reaching the caller, through the router's streaming API against reading the raw body bytes.
// The server runs in this process so that the write and the arrival are read from one clock; a
// pause after every event leaves the event loop idle, so each event is its own read and the server
// never competes with the client being measured.
import { createServer } from 'node:http'

import { createEchoRouter } from '../dist/client.js'

const EVENTS_PER_RUN = 110
const WARM_UP_EVENTS = 10
const RUNS_PER_SIDE = 3
const PAUSE_MS = 2

export async function measureStreamLatency() {
  const writtenAt = new Map()
  const { server, url } = await startSseServer(writtenAt)
  try {
    const router = createEchoRouter({
      baseRouterUrl: url,
      tokenProvider: { getAccessToken: async () => 'token', refreshToken: async () => 'token' },
    })
    const timings = { raw: [], echo: [] }
    // Interleaved runs, so drift on the machine falls on both sides alike.
    for (let run = 0; run < RUNS_PER_SIDE; run += 1) {
      timings.raw.push(...(await readRaw(url, writtenAt, `raw-${run}`)))
      timings.echo.push(...(await readThroughRouter(router, writtenAt, `echo-${run}`)))
    }
    const rawMedianUs = median(timings.raw)
    const echoMedianUs = median(timings.echo)
    return {
      events: timings.echo.length,
      pauseMs: PAUSE_MS,
      rawMedianUs,
      echoMedianUs,
      extraUs: echoMedianUs - rawMedianUs,
    }
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

/** Streams `EVENTS_PER_RUN` events per request, noting when each was handed to the socket. */
function startSseServer(writtenAt) {
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const { run } = JSON.parse(body)
      response.writeHead(200) // no Content-Type, as Echo's router streams
      let index = 0
      const writeNext = () => {
        if (index === EVENTS_PER_RUN) return response.end('data: [DONE]\n\n')
        writtenAt.set(`${run}:${index}`, process.hrtime.bigint())
        response.write(`data: {"run":"${run}","i":${index}}\n\n`)
        index += 1
        setTimeout(writeNext, PAUSE_MS)
      }
      writeNext()
    })
  })
  server.keepAliveTimeout = 60_000
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })),
  )
}

async function readThroughRouter(router, writtenAt, run) {
  const latencies = []
  const stream = await router.chat.completions.create({ model: 'bench', messages: [], stream: true, run })
  for await (const event of stream) {
    const arrived = process.hrtime.bigint()
    if (event.i >= WARM_UP_EVENTS) latencies.push(microseconds(arrived - writtenAt.get(`${run}:${event.i}`)))
  }
  return latencies
}

/** The baseline: the raw body bytes, read as they come, with no parsing but finding the index. */
async function readRaw(url, writtenAt, run) {
  const latencies = []
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { Authorization: 'Bearer token', 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'bench', messages: [], stream: true, run }),
  })
  const decoder = new TextDecoder()
  for await (const bytes of response.body) {
    const arrived = process.hrtime.bigint()
    for (const [, index] of decoder.decode(bytes, { stream: true }).matchAll(/"i":(\d+)/g)) {
      if (Number(index) >= WARM_UP_EVENTS) latencies.push(microseconds(arrived - writtenAt.get(`${run}:${index}`)))
    }
  }
  return latencies
}

function microseconds(nanoseconds) {
  return Number(nanoseconds) / 1e3
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
