// echo-rtk/server's route (echo.route + userFrom) against a route that passes the token to the
// router itself: median time of one request to each, over loopback, after the first validation.
import { createServer } from 'node:http'

import { createEchoServer } from '../dist/server.js'

const REQUESTS = 6_000
const BODY = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })

/** A JWT that expires in an hour (the server reads its exp; the loopback "Echo" says it is valid). */
function benchToken() {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'user-1', app_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f55', exp: Math.floor(Date.now() / 1000) + 3600 })}.c2ln`
}

/** Serves a Web `(Request) => Response` handler over node:http, as a framework's adapter would. */
function serve(handler) {
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers,
      body: Buffer.concat(chunks),
    })
    const response = await handler(request)
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  server.keepAliveTimeout = 60_000
  return new Promise((ready) =>
    server.listen(0, '127.0.0.1', () =>
      ready({
        url: `http://127.0.0.1:${server.address().port}/api/chat`,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  )
}

/**
 * `baseUrl` is the loopback Echo (validation and router). Both routes read the request, call the
 * router's chat completions with the user's token and answer its JSON; one through echo.route and
 * user.fetch (the token verified with Echo once, then from the kept verdict), the other by hand.
 */
export async function measureServerRouteOverhead(baseUrl) {
  const routerUrl = `${baseUrl}/server-router`
  const echo = createEchoServer({
    appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f55',
    apiUrl: baseUrl,
    baseRouterUrl: routerUrl,
  })
  const direct = await serve(async (request) => {
    const authorization = request.headers.get('authorization') ?? ''
    const answer = await fetch(`${routerUrl}/chat/completions`, {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: await request.text(),
    })
    return new Response(await answer.arrayBuffer(), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  const routed = await serve(
    echo.route(async (request, user) => {
      const answer = await user.fetch(`${routerUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: await request.text(),
      })
      return new Response(await answer.arrayBuffer(), {
        status: answer.status,
        headers: { 'Content-Type': 'application/json' },
      })
    }),
  )
  const token = benchToken()
  const send = (url) =>
    fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: BODY,
    })
  const timings = { direct: [], routed: [] }
  const timeOne = async (url, into) => {
    const start = process.hrtime.bigint()
    const response = await send(url)
    if (response.status !== 200) throw new Error(`the route answered ${response.status}: ${await response.text()}`)
    await response.arrayBuffer()
    into?.push(Number(process.hrtime.bigint() - start) / 1e3)
  }
  try {
    for (let i = 0; i < 500; i += 1) {
      await timeOne(direct.url)
      await timeOne(routed.url)
    }
    // One of each in turn, so whatever the machine does meanwhile falls on both alike.
    for (let i = 0; i < REQUESTS; i += 1) {
      await timeOne(direct.url, timings.direct)
      await timeOne(routed.url, timings.routed)
    }
  } finally {
    await Promise.all([direct.close(), routed.close()])
  }
  const directMedian = median(timings.direct)
  const routedMedian = median(timings.routed)
  return {
    requests: REQUESTS,
    directMedianUs: directMedian,
    routedMedianUs: routedMedian,
    ratio: routedMedian / directMedian,
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
