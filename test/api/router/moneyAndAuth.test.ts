import { delay, http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'

import { RefreshCoordinator } from '../../../src/api/refreshCoordinator'
import {
  createEchoRouter,
  EchoClient,
  EchoError,
  isAbortError,
  isInsufficientFunds,
  type TokenProvider,
} from '../../../src/client'
import { server } from '../../support/server'
import { API, rotatingTokens } from '../../support/tokens'
import { recordRouter, ROUTER, userRouter } from './routerKit'

const messages = [{ role: 'user' as const, content: 'Hi' }]
const chat = (router = userRouter()) => router.chat.completions.create({ model: 'gpt-4o', messages })

async function failureOf(promise: Promise<unknown>): Promise<EchoError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof EchoError)) throw new Error(`Expected an EchoError, got ${String(error)}`)
  return error
}

/** A router that accepts only `validToken()`, answering 401 otherwise. */
function guardedRouter(validToken: () => string) {
  return recordRouter((request) =>
    request.headers.get('authorization') === `Bearer ${validToken()}`
      ? HttpResponse.json({ ok: true })
      : HttpResponse.json({ message: 'Unauthorized' }, { status: 401 }),
  )
}

describe('no token, no request', () => {
  it.each([
    ['a chat call', (router = userRouter()) => chat(router)],
    [
      'a streamed chat call',
      (router = userRouter()) => router.chat.completions.create({ model: 'gpt-4o', messages, stream: true }),
    ],
    ['Google embeddings', (router = userRouter()) => router.google.embedContents('text-embedding-004', ['x'])],
  ])(
    '%s fails at once with "Not authenticated" and sends nothing (the router would answer 402)',
    async (_name, call) => {
      const seen = recordRouter()
      const signedOut: TokenProvider = {
        getAccessToken: () => Promise.resolve(null),
        refreshToken: () => Promise.resolve(),
      }
      const error = await failureOf(call(createEchoRouter({ baseRouterUrl: ROUTER, tokenProvider: signedOut })))
      expect(error.message).toMatch(/^Not authenticated while /)
      expect(isInsufficientFunds(error)).toBe(false)
      expect(seen).toEqual([])
    },
  )
})

describe('401: the one shared refresh and one marked retry', () => {
  it('refreshes once and retries once with X-Retry: true and the same body', async () => {
    const { provider, state } = rotatingTokens()
    const seen = guardedRouter(() => 'token-2')
    await expect(chat(createEchoRouter({ baseRouterUrl: ROUTER, tokenProvider: provider }))).resolves.toEqual({
      ok: true,
    })
    expect(state.refreshCalls).toBe(1)
    expect(seen.map((s) => [s.headers.get('authorization'), s.headers.get('x-retry')])).toEqual([
      ['Bearer token-1', null],
      ['Bearer token-2', 'true'],
    ])
    const bodies = await Promise.all(seen.map((s) => s.request.text()))
    expect(bodies[1]).toBe(bodies[0])
  })

  it('sends the recording again on the retry of a transcription', async () => {
    const { provider } = rotatingTokens()
    const seen = guardedRouter(() => 'token-2')
    const router = createEchoRouter({ baseRouterUrl: ROUTER, tokenProvider: provider })
    await router.audio.transcriptions.create({ file: new File(['voice'], 'memo.mp3'), model: 'whisper-1' })
    const files = await Promise.all(seen.map(async (s) => ((await s.request.formData()).get('file') as File).text()))
    expect(files).toEqual(['voice', 'voice'])
  })

  it('concurrent 401s from the router and from an EchoClient on the same session lead to a single refresh', async () => {
    const { provider, state } = rotatingTokens()
    // A refresh that takes a while, so that every 401 arrives while it runs.
    const slowRefresh: TokenProvider = {
      getAccessToken: () => provider.getAccessToken(),
      refreshToken: () => delay(20).then(() => provider.refreshToken()),
    }
    const session = new RefreshCoordinator(slowRefresh)
    guardedRouter(() => 'token-2')
    let balanceCalls = 0
    server.use(
      http.get(`${API}/api/v1/balance`, async ({ request }) => {
        balanceCalls += 1
        await delay(5)
        return request.headers.get('authorization') === 'Bearer token-2'
          ? HttpResponse.json({ balance: 1 })
          : HttpResponse.json({}, { status: 401 })
      }),
    )
    // Every request leaves with token-1, which the servers no longer take.
    const router = createEchoRouter({ baseRouterUrl: ROUTER, tokenProvider: session })
    const client = new EchoClient({ apiUrl: API, tokenProvider: session })
    const results = await Promise.all([
      chat(router),
      chat(router),
      router.embeddings.create({ model: 'm', input: 'x' }),
      client.balance.get(),
    ])
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }, { balance: 1 }])
    expect(state.refreshCalls).toBe(1)
    expect(balanceCalls).toBe(2)
  })

  it('a second 401 after the marked retry is the error, not retried again', async () => {
    const { provider, state } = rotatingTokens()
    const seen = guardedRouter(() => 'never')
    const error = await failureOf(chat(createEchoRouter({ baseRouterUrl: ROUTER, tokenProvider: provider })))
    expect(error).toMatchObject({ code: 'HTTP_401', statusCode: 401, endpoint: '/chat/completions' })
    expect(seen).toHaveLength(2)
    expect(state.refreshCalls).toBe(1)
  })

  it('a failed refresh fails the call with HTTP_401 naming why, and is reported once', async () => {
    const reported: Error[] = []
    const provider: TokenProvider = {
      getAccessToken: () => Promise.resolve('expired'),
      refreshToken: () => Promise.reject(new Error('invalid_request')),
      onRefreshError: (error) => reported.push(error),
    }
    guardedRouter(() => 'fresh')
    const error = await failureOf(chat(createEchoRouter({ baseRouterUrl: ROUTER, tokenProvider: provider })))
    expect(error.code).toBe('HTTP_401')
    expect(error.message).toBe(
      '{"message":"Unauthorized"} (token refresh failed: invalid_request) while creating chat completion',
    )
    expect(reported.map((e) => e.message)).toEqual(['invalid_request'])
  })
})

describe('402: insufficient funds, whatever the body', () => {
  it('an HTML page is an HTTP_402 EchoError for which isInsufficientFunds() is true, with a readable message', async () => {
    recordRouter(
      () =>
        new HttpResponse('<!DOCTYPE html><html><body><h1>402 Payment Required</h1></body></html>', {
          status: 402,
          headers: { 'Content-Type': 'text/html' },
        }),
    )
    const error = await failureOf(chat())
    expect(isInsufficientFunds(error)).toBe(true)
    expect(isInsufficientFunds(error.toJSON())).toBe(true)
    expect(error.toJSON()).toEqual({
      code: 'HTTP_402',
      reason: 'insufficient-funds',
      statusCode: 402,
      endpoint: '/chat/completions',
      message: 'Insufficient funds while creating chat completion',
      action: 'creating chat completion',
      userMessage: 'You are out of credits. Add credits to keep going.',
    })
  })

  it("keeps the router's message when it gives one", async () => {
    recordRouter(() => HttpResponse.json({ error: 'Balance too low for this request' }, { status: 402 }))
    const error = await failureOf(userRouter().images.generate({ model: 'gpt-image-1', prompt: 'a cat' }))
    expect(error.message).toBe('Insufficient funds: Balance too low for this request while generating images')
    expect(isInsufficientFunds(error)).toBe(true)
  })

  it('a streamed call fails before any iteration', async () => {
    recordRouter(() => new HttpResponse('Payment Required', { status: 402 }))
    const error = await failureOf(userRouter().messages.create({ model: 'claude-sonnet-4-5', messages, stream: true }))
    expect(isInsufficientFunds(error)).toBe(true)
    expect(error.message).toBe('Insufficient funds while creating message')
  })
})

describe('other failures', () => {
  it("422 is an unknown-model error naming the model and carrying the router's message", async () => {
    recordRouter(() => HttpResponse.json({ error: 'Invalid model: gpt-9' }, { status: 422 }))
    const error = await failureOf(userRouter().chat.completions.create({ model: 'gpt-9', messages }))
    expect(error.toJSON()).toEqual({
      code: 'HTTP_422',
      reason: 'http',
      statusCode: 422,
      endpoint: '/chat/completions',
      message: 'Unknown model "gpt-9": Invalid model: gpt-9 while creating chat completion',
      action: 'creating chat completion',
    })
  })

  it('422 on a Google call names the model of the path', async () => {
    recordRouter(() => HttpResponse.json({ error: { message: 'No such model' } }, { status: 422 }))
    const error = await failureOf(userRouter().google.generateContent('gemini-9', { contents: [] }))
    expect(error.message).toBe('Unknown model "gemini-9": No such model while generating content')
  })

  it("any other status is HTTP_<status> with the body text as message, and the upstream's words for the user", async () => {
    recordRouter(() => HttpResponse.json({ error: { message: 'upstream exploded' } }, { status: 503 }))
    const error = await failureOf(userRouter().embeddings.create({ model: 'm', input: 'x' }))
    expect(error.toJSON()).toEqual({
      code: 'HTTP_503',
      reason: 'http',
      statusCode: 503,
      endpoint: '/embeddings',
      message: '{"error":{"message":"upstream exploded"}} while creating embeddings',
      action: 'creating embeddings',
      userMessage: 'upstream exploded while creating embeddings',
    })
  })

  it('a request that gets no answer is a NETWORK_ERROR', async () => {
    recordRouter(() => HttpResponse.error())
    const error = await failureOf(userRouter().audio.speech.create({ model: 'tts-1', input: 'Hi', voice: 'alloy' }))
    expect(error.toJSON()).toEqual({
      code: 'NETWORK_ERROR',
      reason: 'network',
      endpoint: '/audio/speech',
      message: 'Network error while generating speech',
      action: 'generating speech',
      userMessage: 'You seem to be offline. Check your connection and try again.',
    })
  })

  it('an aborted call rejects with an abort error that is not a funds or auth failure', async () => {
    recordRouter(async () => {
      await delay('infinite')
      return HttpResponse.json({})
    })
    const controller = new AbortController()
    const pending = userRouter().google.predict('imagen', { instances: [] }, { signal: controller.signal })
    controller.abort()
    const error = await failureOf(pending)
    expect(isAbortError(error)).toBe(true)
    expect(isInsufficientFunds(error)).toBe(false)
    expect(error.message).toBe('Request aborted while predicting')
  })
})
