import { describe, expect, it } from 'vitest'

import { echoEndpoints, echoHandlers } from 'echo-rtk/testing'

import { server } from '../support/server'

const config = {
  appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
  apiUrl: 'https://echo.test',
  baseRouterUrl: 'https://router.echo.test',
}
const urls = echoEndpoints(config)
const page = 'http://localhost:5173'

/** The preflight a browser sends before a cross-origin `method` carrying `headers`. */
const preflight = (url: string, method: string, headers: string) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: { Origin: page, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers },
  })

describe('CORS: a DOM that checks it (happy-dom) may call every Echo endpoint from the page', () => {
  it.each([
    ['the balance', urls.balance, 'GET', 'authorization'],
    ['the token endpoint', urls.token, 'POST', 'content-type'],
    ['the authorize endpoint (echoSignIn asks it from the page)', urls.authorize, 'GET', ''],
    ['an app by id', `${config.apiUrl}/api/v1/apps/app-1`, 'GET', 'authorization'],
    ['the chat completions, retried', urls.chatCompletions, 'POST', 'authorization,content-type,x-retry'],
    ['Google generateContent', `${config.baseRouterUrl}/v1beta/models/gemini-2.5-flash:generateContent`, 'POST', ''],
  ])(
    '%s: its preflight is answered for the calling origin, the method and Authorization allowed',
    async (_, url, method, headers) => {
      server.use(...echoHandlers(config))
      const answer = await preflight(url, method, headers)
      expect(answer.status).toBe(204)
      expect(answer.headers.get('access-control-allow-origin')).toBe(page)
      expect(answer.headers.get('access-control-allow-methods')?.split(', ')).toContain(method)
      const allowed = answer.headers.get('access-control-allow-headers')?.toLowerCase().split(', ')
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-retry']))
    },
  )

  it("allows the headers a preflight asks for besides Echo's own (the official SDKs send x-stainless-*)", async () => {
    server.use(...echoHandlers(config))
    const answer = await preflight(urls.chatCompletions, 'POST', 'authorization,x-stainless-os,x-stainless-os')
    expect(answer.headers.get('access-control-allow-headers')?.split(', ').slice(-1)).toEqual(['x-stainless-os'])
  })

  it('answers to any origin with * where the DOM hides the Origin from msw', async () => {
    server.use(...echoHandlers(config))
    const answer = await fetch(urls.balance, { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'GET' } })
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('every answer is readable by the calling page: the balance, a 401, a configured failure, a stream', async () => {
    server.use(...echoHandlers({ ...config, failures: { user: { status: 503 } } }))
    const asking = (url: string, init: RequestInit = {}) =>
      fetch(url, { ...init, headers: { Origin: page, Authorization: 'Bearer key-1', ...init.headers } })
    const answers = [
      await asking(urls.balance),
      await fetch(urls.balance, { headers: { Origin: page } }),
      await asking(urls.user),
      await asking(urls.chatCompletions, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [], stream: true }),
      }),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 503, 200])
    expect(answers.map((answer) => answer.headers.get('access-control-allow-origin'))).toEqual([page, page, page, page])
    await Promise.all(answers.map((answer) => answer.text()))
  })

  it('preflights are not in echo.requests: the browser sends them, not the app', async () => {
    const echo = echoHandlers(config)
    server.use(...echo)
    await preflight(urls.token, 'POST', 'content-type')
    expect(echo.requests).toEqual([])
  })
})
