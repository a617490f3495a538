// The model clients apps already use, through the session: the AI SDK's providers by
// useEchoModelProvider, and openai, @anthropic-ai/sdk and @google/genai by useEchoFetch, against
// the dev server's real OpenID provider and billing router.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { renderHook, waitFor } from '@testing-library/react'
import { embed, embedMany, generateImage, generateText, streamText } from 'ai'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { isInsufficientFunds, useEcho, useEchoFetch, useEchoModelProvider } from 'echo-rtk'

import type { RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { setBalance } from '../dev-server/devServerClient'
import { DEV_SERVER_START_MS, startDevServerProcess } from '../support/devServerProcess'
import {
  devServerWrapper,
  recordDevServer,
  storeDevServerSession,
  type SeenByDevServer,
} from '../support/devServerSession'

let dev: RunningDevServer
let seen: SeenByDevServer[]
let userToken: string
beforeAll(async () => {
  dev = await startDevServerProcess({ streamDelayMs: 5 })
}, DEV_SERVER_START_MS)
afterAll(async () => {
  await dev?.close()
})
beforeEach(async () => {
  seen = recordDevServer()
  await setBalance(dev, 10, 1)
  userToken = (await storeDevServerSession(dev)).access_token
})
afterEach(() => {
  window.localStorage.clear()
})

/** The session's hooks, rendered in a provider for the dev server once it has settled. */
async function renderSession() {
  const hook = renderHook(
    () => ({
      echo: useEcho(),
      fetch: useEchoFetch(),
      openai: useEchoModelProvider(createOpenAI),
      anthropic: useEchoModelProvider(createAnthropic),
      google: useEchoModelProvider(createGoogleGenerativeAI),
    }),
    { wrapper: devServerWrapper(dev) },
  )
  await waitFor(() => expect(hook.result.current.echo.balance).not.toBeNull())
  return hook
}

const routerCalls = () => seen.filter((request) => request.url.startsWith(dev.routerUrl))
const count = (path: string) => seen.filter((request) => request.url === `${dev.apiUrl}${path}`).length

describe('the AI SDK, through useEchoModelProvider', () => {
  it("OpenAI: generateText, streamText, embed, embedMany and an image, each with the user's token", async () => {
    const { result } = await renderSession()
    const { openai } = result.current
    const { text } = await generateText({ model: openai('gpt-4o-mini'), prompt: 'Say hello' })
    expect(text.length).toBeGreaterThan(0)
    const streamed = streamText({ model: openai.chat('gpt-4o-mini'), prompt: 'Tell a story' })
    const pieces: string[] = []
    for await (const piece of streamed.textStream) pieces.push(piece)
    expect(pieces.length).toBeGreaterThan(1)
    const { embedding } = await embed({ model: openai.embedding('text-embedding-3-small'), value: 'one' })
    expect(embedding.length).toBeGreaterThan(0)
    const { embeddings } = await embedMany({
      model: openai.embedding('text-embedding-3-small'),
      values: ['one', 'two', 'three'],
    })
    expect(embeddings).toHaveLength(3)
    const { images } = await generateImage({ model: openai.image('gpt-image-1'), prompt: 'A lighthouse', n: 1 })
    expect(images).toHaveLength(1)
    expect(routerCalls().map((call) => call.url.slice(dev.routerUrl.length))).toEqual([
      '/responses',
      '/chat/completions',
      '/embeddings',
      '/embeddings',
      '/images/generations',
    ])
    expect(new Set(routerCalls().map((call) => call.authorization))).toEqual(new Set([`Bearer ${userToken}`]))
  })

  it('Anthropic: generateText and streamText', async () => {
    const { result } = await renderSession()
    const { anthropic } = result.current
    expect(
      (await generateText({ model: anthropic('claude-haiku-4-5'), prompt: 'Say hello' })).text.length,
    ).toBeGreaterThan(0)
    let streamed = ''
    for await (const piece of streamText({ model: anthropic('claude-haiku-4-5'), prompt: 'Tell a story' }).textStream)
      streamed += piece
    expect(streamed.length).toBeGreaterThan(0)
    expect(routerCalls().map((call) => [call.url.slice(dev.routerUrl.length), call.authorization])).toEqual([
      ['/messages', `Bearer ${userToken}`],
      ['/messages', `Bearer ${userToken}`],
    ])
  })

  it('Google: generateText, embed (one :embedContent) and embedMany (:batchEmbedContents)', async () => {
    const { result } = await renderSession()
    const { google } = result.current
    expect(
      (await generateText({ model: google('gemini-2.5-flash'), prompt: 'Say hello' })).text.length,
    ).toBeGreaterThan(0)
    expect(
      (await embed({ model: google.embedding('gemini-embedding-001'), value: 'one' })).embedding.length,
    ).toBeGreaterThan(0)
    expect(
      (await embedMany({ model: google.embedding('gemini-embedding-001'), values: ['one', 'two'] })).embeddings,
    ).toHaveLength(2)
    expect(routerCalls().map((call) => call.url.slice(dev.routerUrl.length))).toEqual([
      '/models/gemini-2.5-flash:generateContent',
      '/models/gemini-embedding-001:embedContent',
      '/models/gemini-embedding-001:batchEmbedContents',
    ])
  })

  it('a 402 reaches the AI SDK as its own APICallError with statusCode 402, and marks the user out of credits', async () => {
    const { result } = await renderSession()
    await setBalance(dev, 0, 0)
    const failure: unknown = await generateText({
      model: result.current.openai('gpt-4o-mini'),
      prompt: 'Hello',
      maxRetries: 0,
    }).catch((error: unknown) => error)
    expect(failure).toMatchObject({ name: 'AI_APICallError', statusCode: 402 })
    expect(isInsufficientFunds(failure)).toBe(true)
    await waitFor(() => expect(result.current.echo.isInsufficientFunds).toBe(true))
  })
})

describe('official clients, through useEchoFetch', () => {
  it("openai: a streamed chat with the user's token in place of the client's key", async () => {
    const { result } = await renderSession()
    const openai = new OpenAI({
      apiKey: 'echo',
      baseURL: dev.routerUrl,
      fetch: result.current.fetch,
      dangerouslyAllowBrowser: true,
    })
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    expect(text.length).toBeGreaterThan(0)
    expect(routerCalls()).toEqual([
      { method: 'POST', url: `${dev.routerUrl}/chat/completions`, authorization: `Bearer ${userToken}` },
    ])
  })

  it("openai: a 402 is the client's own APIError saying 402, and the user is marked out of credits", async () => {
    const { result } = await renderSession()
    await setBalance(dev, 0, 0)
    const openai = new OpenAI({
      apiKey: 'echo',
      baseURL: dev.routerUrl,
      fetch: result.current.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    })
    const failure: unknown = await openai.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(OpenAI.APIError)
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(402)
    expect(isInsufficientFunds(failure)).toBe(true)
    await waitFor(() => expect(result.current.echo.isInsufficientFunds).toBe(true))
  })

  it('@anthropic-ai/sdk: a message', async () => {
    const { result } = await renderSession()
    const anthropic = new Anthropic({
      apiKey: 'echo',
      baseURL: dev.routerUrl,
      fetch: result.current.fetch,
      dangerouslyAllowBrowser: true,
    })
    const message = await anthropic.messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(message.content[0]?.type).toBe('text')
    expect(routerCalls()).toEqual([
      { method: 'POST', url: `${dev.routerUrl}/v1/messages`, authorization: `Bearer ${userToken}` },
    ])
  })

  it('@google/genai: content, and a 402 as its ApiError with status 402', async () => {
    const { result } = await renderSession()
    const ai = new GoogleGenAI({
      apiKey: 'echo',
      httpOptions: { baseUrl: dev.routerUrl, apiVersion: 'v1beta', fetch: result.current.fetch },
    })
    const answer = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' })
    expect(answer.text?.length).toBeGreaterThan(0)
    expect(routerCalls()[0]).toEqual({
      method: 'POST',
      url: `${dev.routerUrl}/v1beta/models/gemini-2.5-flash:generateContent`,
      authorization: `Bearer ${userToken}`,
    })
    await setBalance(dev, 0, 0)
    const failure: unknown = await ai.models
      .generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' })
      .catch((error: unknown) => error)
    expect(failure).toMatchObject({ status: 402 })
    expect(isInsufficientFunds(failure)).toBe(true)
  })
})

describe("the session's rules, whatever the client", () => {
  it('a burst of 401s (a token the router no longer takes) leads to one refresh; every call then succeeds', async () => {
    window.localStorage.clear()
    await storeDevServerSession(dev, { accessToken: 'no-longer-valid' })
    const tokenCallsBefore = count('/api/oauth/token')
    // Not waiting for the balance: its two calls join the burst of 401s.
    const { result } = renderHook(() => ({ echo: useEcho(), fetch: useEchoFetch() }), {
      wrapper: devServerWrapper(dev),
    })
    expect(result.current.echo.status).toBe('authenticated')
    const openai = new OpenAI({
      apiKey: 'echo',
      baseURL: dev.routerUrl,
      fetch: result.current.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    })
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }),
      ),
    )
    expect(answers).toHaveLength(5)
    expect(count('/api/oauth/token') - tokenCallsBefore).toBe(1)
    expect(routerCalls().filter((call) => call.authorization === 'Bearer no-longer-valid').length).toBeGreaterThan(0)
    await waitFor(() => expect(result.current.echo.balance).not.toBeNull())
    expect(result.current.echo.isAuthenticated).toBe(true)
  })

  it('the balance is refetched once a burst of calls has ended, once for the burst', async () => {
    const { result } = await renderSession()
    const freeBefore = result.current.echo.freeTierBalance?.userSpendInfo.amountLeft
    const balanceCallsBefore = count('/api/v1/balance')
    await Promise.all(
      Array.from({ length: 3 }, () => generateText({ model: result.current.openai('gpt-4o-mini'), prompt: 'Hello' })),
    )
    await waitFor(() => expect(result.current.echo.freeTierBalance?.userSpendInfo.amountLeft).toBeLessThan(freeBefore!))
    expect(count('/api/v1/balance') - balanceCallsBefore).toBe(1)
  })

  it('an abort cancels the request itself: billing stops with it', async () => {
    const { result } = await renderSession()
    const free = async () =>
      (
        await fetch(`${dev.apiUrl}/api/v1/balance/free`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${userToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ echoAppId: dev.appId }),
        }).then((r) => r.json() as Promise<{ userSpendInfo: { amountSpent: number } }>)
      ).userSpendInfo.amountSpent
    const openai = new OpenAI({
      apiKey: 'echo',
      baseURL: dev.routerUrl,
      fetch: result.current.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    })
    const ask = {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user' as const, content: 'Tell a long story' }],
      max_tokens: 200,
      stream: true as const,
    }
    let spent = await free()
    for await (const chunk of await openai.chat.completions.create(ask)) void chunk
    const whole = (await free()) - spent
    spent = await free()
    const controller = new AbortController()
    const stream = await openai.chat.completions.create(ask, { signal: controller.signal })
    let chunks = 0
    // openai's stream ends its loop quietly when its signal fires.
    for await (const chunk of stream) {
      chunks += 1
      if (chunk.choices[0]?.delta.content) controller.abort()
    }
    expect(chunks).toBeLessThan(5)
    await waitFor(async () => expect((await free()) - spent).toBeLessThan(whole))
  })

  it('nothing is sent while signed out: the call fails with Not authenticated', async () => {
    window.localStorage.clear()
    const { result } = renderHook(() => ({ echo: useEcho(), fetch: useEchoFetch() }), {
      wrapper: devServerWrapper(dev),
    })
    await waitFor(() => expect(result.current.echo.status).toBe('unauthenticated'))
    const openai = new OpenAI({
      apiKey: 'echo',
      baseURL: dev.routerUrl,
      fetch: result.current.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    })
    const failure: unknown = await openai.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error)
    expect(String((failure as { cause?: unknown }).cause)).toMatch(/Not authenticated/)
    expect(routerCalls()).toEqual([])
  })

  it('nothing is sent to a foreign origin: a client left on its default host is refused, naming it', async () => {
    const { result } = await renderSession()
    const misconfigured = new OpenAI({
      apiKey: 'echo',
      fetch: result.current.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    })
    const failure: unknown = await misconfigured.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error)
    expect(String((failure as { cause?: unknown }).cause)).toContain(
      `Refusing to send the user's Echo token to https://api.openai.com: it goes only to ${dev.apiUrl} and ${dev.routerUrl}. Set your model client's baseURL to the Echo router`,
    )
    await expect(result.current.fetch('https://api.openai.com/v1/models')).rejects.toMatchObject({ name: 'EchoError' })
    expect(routerCalls()).toEqual([])
  })

  it("useEchoFetch and each provider keep their identity for the session's life", async () => {
    const { result, rerender } = await renderSession()
    const first = result.current
    rerender()
    expect(result.current.fetch).toBe(first.fetch)
    expect(result.current.openai).toBe(first.openai)
    expect(result.current.google).toBe(first.google)
  })
})
