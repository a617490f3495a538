// A loopback server for the benchmarks, run in its own process so that its work does not count
// against the client being measured. It speaks just enough of Echo: a cheap endpoint, a guarded
// balance endpoint, and a token endpoint that rotates refresh tokens like Echo's.
import { createServer } from 'node:http'

const state = { access: 'access-0', refresh: 'refresh-0', generation: 0, tokenCalls: 0, rejected: 0 }

const server = createServer((request, response) => {
  const url = new URL(request.url, 'http://127.0.0.1')
  const send = (status, body) => {
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    response.end(body)
  }
  if (url.pathname === '/ping') return send(200, '{"ok":true}')
  if (url.pathname === '/stats') return send(200, JSON.stringify(state))
  if (url.pathname === '/reset') {
    Object.assign(state, { access: 'access-0', refresh: 'refresh-0', generation: 0, tokenCalls: 0, rejected: 0 })
    return send(200, '{}')
  }
  if (url.pathname === '/api/v1/balance') {
    if (request.headers.authorization === `Bearer ${state.access}`) return send(200, '{"balance":1}')
    state.rejected += 1
    // Spread the rejections so they land before, during and after the refresh.
    const id = Number(url.searchParams.get('id') ?? 0)
    return setTimeout(() => send(401, '{"message":"Unauthorized"}'), id % 60)
  }
  if (url.pathname === '/api/oauth/token' && request.method === 'POST') {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      state.tokenCalls += 1
      const presented = new URLSearchParams(body).get('refresh_token')
      if (presented !== state.refresh) return send(400, '{"error":"invalid_request"}')
      setTimeout(() => {
        state.generation += 1
        state.access = `access-${state.generation}`
        state.refresh = `refresh-${state.generation}`
        send(200, JSON.stringify({ access_token: state.access, refresh_token: state.refresh, token_type: 'Bearer', expires_in: 900 }))
      }, 25)
    })
    return undefined
  }
  return send(404, '{"message":"Not found"}')
})

server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }))
process.on('disconnect', () => server.close(() => process.exit(0)))
