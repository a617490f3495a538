import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'

import { createEchoFetch, EchoError } from '../../src/client'
import { server } from '../support/server'
import { rotatingTokens } from '../support/tokens'

const ROUTER = 'https://router.echo.test'

describe('createEchoFetch with allowedOrigins', () => {
  it('sends the token to an allowed origin, and refuses any other before sending anything', async () => {
    const seen: string[] = []
    server.use(http.all('*', ({ request }) => (seen.push(request.url), HttpResponse.json({}))))
    const echoFetch = createEchoFetch({
      tokenProvider: rotatingTokens().provider,
      allowedOrigins: [`${ROUTER}/some/path`, 'https://echo.test'],
    })
    await expect(echoFetch(`${ROUTER}/chat/completions`, { method: 'POST' })).resolves.toHaveProperty('status', 200)
    await expect(echoFetch(new URL('https://echo.test/api/v1/balance'))).resolves.toHaveProperty('status', 200)
    for (const elsewhere of [
      'https://api.openai.com/v1/chat/completions',
      'https://router.echo.test.evil.example/x',
      'http://router.echo.test/chat/completions',
      new Request('https://evil.example/'),
    ]) {
      const failure: unknown = await echoFetch(elsewhere).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(EchoError)
      expect((failure as EchoError).reason).toBe('foreign-origin')
      expect((failure as EchoError).message).toMatch(
        /^Refusing to send the user's Echo token to https?:\/\/[^:]+: it goes only to https:\/\/router\.echo\.test and https:\/\/echo\.test\. Set your model client's baseURL to the Echo router$/,
      )
    }
    expect(seen).toEqual([`${ROUTER}/chat/completions`, 'https://echo.test/api/v1/balance'])
  })

  it('refuses a URL that is not http(s), and an allow-list entry that is not a URL', async () => {
    const echoFetch = createEchoFetch({ tokenProvider: rotatingTokens().provider, allowedOrigins: [ROUTER] })
    await expect(echoFetch('data:text/plain,hi')).rejects.toBeInstanceOf(EchoError)
    expect(() =>
      createEchoFetch({ tokenProvider: rotatingTokens().provider, allowedOrigins: ['router.echo.test'] }),
    ).toThrow(`createEchoFetch's allowedOrigins must list absolute http(s) URLs (got "router.echo.test")`)
  })

  it('sends anywhere when no allow-list is given (as before)', async () => {
    server.use(http.get('https://anywhere.example/x', () => HttpResponse.json({ ok: true })))
    const echoFetch = createEchoFetch({ tokenProvider: rotatingTokens().provider })
    await expect((await echoFetch('https://anywhere.example/x')).json()).resolves.toEqual({ ok: true })
  })
})
