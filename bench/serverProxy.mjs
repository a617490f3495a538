// The server-held session's proxy (echo.handler's router route: the cookie opened, the token added,
// the answer streamed back) against the page calling the router directly with the token, as browser
// mode does: the median time of one model call each, over loopback, the router taking 100 ms per answer
// as the quickest billed call does (a proxy's cost is a part of a model call, never the call itself);
// and a bare proxy hop beside them (the same request passed on with no session), so the share of the
// session's own work shows. The app's server runs in a process of its own, as it runs on a machine of
// its own: the page's work is not its.
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'

import { createEchoServer } from '../dist/server.js'

const REQUESTS = 150
const APP_ID = '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f55'
const BODY = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })

/** Serves `handler` over node:http as examples/node-server does: the body streamed both ways. */
function serve(handler) {
  const server = createServer(async (req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers,
      ...(hasBody ? { body: Readable.toWeb(req), duplex: 'half' } : {}),
    })
    const response = await handler(request)
    const headers = Object.fromEntries(response.headers)
    const cookies = response.headers.getSetCookie()
    if (cookies.length > 0) headers['set-cookie'] = cookies
    res.writeHead(response.status, headers)
    if (response.body !== null) for await (const chunk of response.body) res.write(chunk)
    res.end()
  })
  server.keepAliveTimeout = 60_000
  return new Promise((ready) =>
    server.listen(0, '127.0.0.1', () =>
      ready({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  )
}

const ROUTER_PATH = '/model-router'

/** The app's server, in this child process: echo.handler in front of the loopback Echo at `baseUrl`. */
async function serveApp(baseUrl) {
  const echo = createEchoServer({
    appId: APP_ID,
    apiUrl: baseUrl,
    baseRouterUrl: `${baseUrl}${ROUTER_PATH}`,
    session: { secret: randomBytes(32).toString('base64') },
  })
  const { access } = await (await fetch(`${baseUrl}/stats`)).json()
  // The bare hop: the request passed on to the router with the token, nothing else done.
  const bare = (request) =>
    request.arrayBuffer().then((body) =>
      fetch(`${baseUrl}${ROUTER_PATH}/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' },
        body,
      }).then((answer) => new Response(answer.body, { status: answer.status, headers: answer.headers })),
    )
  const app = await serve((request) =>
    new URL(request.url).pathname === '/bare' ? bare(request) : echo.handler(request),
  )
  process.send({ origin: app.origin })
  process.on('disconnect', () => void app.close().then(() => process.exit(0)))
}

/** Starts the app's server in a child process; resolves to its origin and how to stop it. */
function startApp(baseUrl) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', baseUrl], { stdio: 'inherit' })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the app's server exited with ${code}`)))
    child.once('message', ({ origin }) =>
      resolve({
        origin,
        close: () =>
          new Promise((done) => {
            child.removeAllListeners('exit')
            child.once('exit', done)
            child.disconnect()
          }),
      }),
    )
  })
}

/** `baseUrl` is the loopback Echo (authorize, token, userinfo, and a router that takes 20 ms). */
export async function measureServerProxyOverhead(baseUrl) {
  const routerUrl = `${baseUrl}${ROUTER_PATH}`
  await fetch(`${baseUrl}/reset`)
  const app = await startApp(baseUrl)
  try {
    // Sign in as a browser does: the app's signin route, Echo's authorize, the app's callback.
    const leave = await fetch(`${app.origin}/api/echo/signin`, { redirect: 'manual' })
    const signInCookie = leave.headers.getSetCookie()[0].split(';')[0]
    const back = await fetch(leave.headers.get('location'), { redirect: 'manual' })
    const done = await fetch(back.headers.get('location'), { redirect: 'manual', headers: { cookie: signInCookie } })
    const cookie = done.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .filter((pair) => pair.startsWith('echo_rtk_'))
      .join('; ')
    if (done.status !== 302 || cookie === '') throw new Error(`sign-in through the server failed: ${done.status}`)
    const { access } = await (await fetch(`${baseUrl}/stats`)).json()
    const direct = () =>
      fetch(`${routerUrl}/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' },
        body: BODY,
      })
    const proxied = () =>
      fetch(`${app.origin}/api/echo/router/chat/completions`, {
        method: 'POST',
        headers: { cookie, origin: app.origin, 'sec-fetch-site': 'same-origin', 'Content-Type': 'application/json' },
        body: BODY,
      })
    const bare = () =>
      fetch(`${app.origin}/bare`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: BODY })
    const timings = { direct: [], proxied: [], bare: [] }
    const timeOne = async (send, into) => {
      const start = process.hrtime.bigint()
      const response = await send()
      if (response.status !== 200) throw new Error(`the call answered ${response.status}: ${await response.text()}`)
      await response.arrayBuffer()
      into?.push(Number(process.hrtime.bigint() - start) / 1e3)
    }
    for (let i = 0; i < 10; i += 1) for (const send of [direct, proxied, bare]) await timeOne(send)
    // One of each in turn, so whatever the machine does meanwhile falls on all alike.
    for (let i = 0; i < REQUESTS; i += 1) {
      await timeOne(direct, timings.direct)
      await timeOne(proxied, timings.proxied)
      await timeOne(bare, timings.bare)
    }
    const directMedianUs = median(timings.direct)
    const proxiedMedianUs = median(timings.proxied)
    const bareMedianUs = median(timings.bare)
    return {
      requests: REQUESTS,
      directMedianUs,
      proxiedMedianUs,
      bareMedianUs,
      ratio: proxiedMedianUs / directMedianUs,
      sessionShareUs: proxiedMedianUs - bareMedianUs,
    }
  } finally {
    await app.close()
    await fetch(`${baseUrl}/reset`)
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

if (process.argv[2] === '--serve') await serveApp(process.argv[3])
