// A loopback server for the benchmarks, run in its own process so that its work does not count
// against the client being measured. It speaks just enough of Echo for echo-rtk and for Echo's own
// SDK alike: a cheap endpoint, guarded balance, user and userinfo endpoints, a guarded router
// chat endpoint, and a token endpoint that rotates refresh tokens like Echo's.
import { createServer } from 'node:http'

const state = { access: 'access-0', refresh: 'refresh-0', generation: 0, tokenCalls: 0, rejected: 0 }

/** What each guarded path answers to the current access token; anything else gets a 401. */
const guarded = {
  '/api/v1/balance': '{"balance":1,"totalPaid":1,"totalSpent":0,"currency":"USD"}',
  // echo-rtk asks for the free tier by POST /api/v1/balance/free, Echo's SDK by GET /api/v1/balance/{appId}/free.
  '/api/v1/balance/free': '{"spendPoolBalance":0,"userSpendInfo":{"amountLeft":0}}',
  '/api/v1/user': '{"id":"user-1","email":"ada@example.com","name":"Ada Lovelace"}',
  '/api/oauth/userinfo': '{"sub":"user-1","email":"ada@example.com","name":"Ada Lovelace"}',
  '/chat/completions':
    '{"id":"chat-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}',
}
/**
 * How long the model router takes to answer a chat, in ms: the quickest billed call Echo serves (a short
 * answer of a small model takes longer, with Echo's own checks and the provider's round trip in it).
 */
const MODEL_ANSWER_MS = 100
const FREE_BALANCE = /^\/api\/v1\/balance\/[^/]+\/free$/
const FREE_BALANCE_BODY = guarded['/api/v1/balance/free']

/** Reads the request body to its end before answering, so that keep-alive sockets stay usable. */
function drain(request, then) {
  request.resume()
  request.once('end', then)
}

const server = createServer((request, response) => {
  const url = new URL(request.url, 'http://127.0.0.1')
  const send = (status, body) => {
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    response.end(body)
  }
  if (url.pathname === '/ping') return send(200, '{"ok":true}')
  // For echo-rtk/server's route: Echo's token validation, and a router answer for any bearer.
  if (url.pathname === '/api/validate-jwt-token')
    return drain(request, () =>
      send(
        200,
        '{"valid":true,"userId":"user-1","appId":"2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f55","scope":"llm:invoke offline_access"}',
      ),
    )
  if (url.pathname === '/server-router/chat/completions')
    return drain(request, () => send(200, guarded['/chat/completions']))
  // A model's answer takes time: the server-held session's proxy is timed against calls that take as long
  // as the quickest billed call.
  if (url.pathname === '/model-router/chat/completions')
    return drain(request, () => setTimeout(() => send(200, guarded['/chat/completions']), MODEL_ANSWER_MS))
  // Sign-in for the server-held session: authorize sends the user straight back with a code.
  if (url.pathname === '/api/oauth/authorize') {
    const back = new URL(url.searchParams.get('redirect_uri'))
    back.searchParams.set('code', 'code-1')
    back.searchParams.set('state', url.searchParams.get('state') ?? '')
    response.writeHead(302, { location: back.href, 'content-length': 0 })
    return response.end()
  }
  if (url.pathname === '/stats') return send(200, JSON.stringify(state))
  if (url.pathname === '/reset') {
    Object.assign(state, { access: 'access-0', refresh: 'refresh-0', generation: 0, tokenCalls: 0, rejected: 0 })
    return send(200, '{}')
  }
  // The server forgets the access token in use (as if it had expired), keeping the refresh token.
  if (url.pathname === '/expire') {
    Object.assign(state, { access: `expired-${state.generation}`, tokenCalls: 0, rejected: 0 })
    return send(200, '{}')
  }
  const answer = guarded[url.pathname] ?? (FREE_BALANCE.test(url.pathname) ? FREE_BALANCE_BODY : undefined)
  if (answer !== undefined) {
    if (request.headers.authorization === `Bearer ${state.access}`) return drain(request, () => send(200, answer))
    state.rejected += 1
    // Spread the rejections so they land before, during and after the refresh.
    const id = Number(url.searchParams.get('id') ?? 0)
    return drain(request, () => setTimeout(() => send(401, '{"message":"Unauthorized"}'), id % 60))
  }
  if (url.pathname === '/api/oauth/token' && request.method === 'POST') {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      state.tokenCalls += 1
      const form = new URLSearchParams(body)
      // A code exchange (the server-held session's sign-in) gets the tokens in use.
      if (form.get('grant_type') === 'authorization_code')
        return send(
          200,
          JSON.stringify({
            access_token: state.access,
            refresh_token: state.refresh,
            token_type: 'Bearer',
            expires_in: 900,
          }),
        )
      const presented = form.get('refresh_token')
      if (presented !== state.refresh) return send(400, '{"error":"invalid_request"}')
      setTimeout(() => {
        state.generation += 1
        state.access = `access-${state.generation}`
        state.refresh = `refresh-${state.generation}`
        send(
          200,
          JSON.stringify({
            access_token: state.access,
            refresh_token: state.refresh,
            token_type: 'Bearer',
            expires_in: 900,
          }),
        )
      }, 25)
    })
    return undefined
  }
  return send(404, '{"message":"Not found"}')
})

server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }))
process.on('disconnect', () => server.close(() => process.exit(0)))
