// echo-rtk's server-held session on a plain Node server (node:http, no framework): the routes of
// `echo.handler` under /api/echo, and a route of the app's own billed to the signed-in user. Run it
// beside the local Echo: ECHO_APP_ID, ECHO_API_URL, ECHO_ROUTER_URL and ECHO_SESSION_SECRET (32+
// characters) from the environment, PORT for the port. The page runs <EchoProvider config={{ appId,
// session: 'server' }}> served from this same origin. Express mounts the same two functions.
import { createServer } from 'node:http'
import { Readable } from 'node:stream'

import { createEchoServer } from 'echo-rtk/server'

const echo = createEchoServer({
  appId: process.env.ECHO_APP_ID,
  apiUrl: process.env.ECHO_API_URL,
  baseRouterUrl: process.env.ECHO_ROUTER_URL,
  session: { secret: process.env.ECHO_SESSION_SECRET },
})

// A route of the app's own: the model call runs here, billed to the user whose session the cookie holds.
const ask = echo.route(async (request, user) => {
  const { question } = await request.json()
  const completion = await user.router.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: question }],
  })
  return Response.json({ answer: completion.choices[0]?.message.content ?? '' })
})

/** Node's request as a Web `Request`: its address as the browser asked for it, its headers, its body as a stream. */
function webRequest(incoming, signal) {
  const headers = new Headers()
  for (let index = 0; index < incoming.rawHeaders.length; index += 2)
    headers.append(incoming.rawHeaders[index], incoming.rawHeaders[index + 1])
  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD'
  return new Request(`http://${incoming.headers.host}${incoming.url}`, {
    method: incoming.method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(incoming), duplex: 'half' } : {}),
  })
}

/** A Web `Response` written to Node's response: every Set-Cookie kept, the body streamed as it comes. */
async function send(response, outgoing) {
  const headers = {}
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  outgoing.writeHead(response.status, headers)
  if (response.body !== null) for await (const chunk of response.body) outgoing.write(chunk)
  outgoing.end()
}

const server = createServer(async (incoming, outgoing) => {
  const aborted = new AbortController()
  outgoing.on('close', () => aborted.abort())
  try {
    const request = webRequest(incoming, aborted.signal)
    const { pathname } = new URL(request.url)
    if (pathname.startsWith('/api/echo/')) return await send(await echo.handler(request), outgoing)
    if (pathname === '/api/ask' && request.method === 'POST') return await send(await ask(request), outgoing)
    await send(new Response('Not found', { status: 404 }), outgoing)
  } catch (error) {
    console.error(error)
    if (!outgoing.headersSent) outgoing.writeHead(500).end()
    else outgoing.destroy()
  }
})
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`)
})
