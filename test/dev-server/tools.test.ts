// The dev router's tool round trips: a request offering tools gets one deterministic
// call of the first tool; once the conversation carries its result, the answer uses it. Driven by
// the AI SDK's own tool loop, in each style.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, stepCountIs, streamText, tool, type LanguageModel } from 'ai'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { z } from 'zod'

import { startDevServer, type RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { letLoopbackThrough, setBalance, signIn } from './devServerClient'

let dev: RunningDevServer
let token: string

beforeAll(async () => {
  dev = await startDevServer({ port: 0, routerPort: 0, accessTtl: 300, autoLogin: true, streamDelayMs: 1 })
  letLoopbackThrough()
  token = (await signIn(dev)).access_token
})
afterAll(() => dev.close())
beforeEach(async () => {
  letLoopbackThrough()
  await setBalance(dev, 10, 0)
})

/** A tool only the app's server can answer: its private order book. */
function orderTool(seen: unknown[]) {
  return tool({
    description: "Looks an order up in the shop's own database",
    inputSchema: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      seen.push(orderId)
      return Promise.resolve({ orderId, status: 'shipped', carrier: 'Pigeon Post' })
    },
  })
}

const settings = () => ({ baseURL: dev.routerUrl, apiKey: token })
const models: [string, () => LanguageModel][] = [
  ['OpenAI responses', () => createOpenAI(settings())('gpt-4o-mini')],
  ['OpenAI chat completions', () => createOpenAI(settings()).chat('gpt-4o-mini')],
  ['Anthropic messages', () => createAnthropic({ baseURL: dev.routerUrl, authToken: token })('claude-haiku-4-5')],
  ['Google generateContent', () => createGoogleGenerativeAI(settings())('gemini-2.5-flash')],
]

describe('tool round trips', () => {
  test.each(models)(
    '%s: the first tool is called with the last word said, and the answer uses its result',
    async (_style, model) => {
      const seen: unknown[] = []
      const result = await generateText({
        model: model(),
        tools: { lookUpOrder: orderTool(seen) },
        stopWhen: stepCountIs(3),
        prompt: 'Where is my order A1042?',
      })
      expect(seen).toEqual(['A1042'])
      expect(result.steps).toHaveLength(2)
      expect(result.text).toContain('The tool lookUpOrder answered:')
      expect(result.text).toContain('Pigeon Post')
    },
  )

  test.each(models)('%s, streamed: the same round trip', async (_style, model) => {
    const seen: unknown[] = []
    const result = streamText({
      model: model(),
      tools: { lookUpOrder: orderTool(seen) },
      stopWhen: stepCountIs(3),
      prompt: 'Where is my order B7?',
    })
    let text = ''
    for await (const piece of result.textStream) text += piece
    expect(seen).toEqual(['B7'])
    expect(text).toContain('shipped')
  })

  test.each(models)('%s: a second question in the same conversation gets a call of its own', async (_style, model) => {
    const seen: unknown[] = []
    const tools = { lookUpOrder: orderTool(seen) }
    const first = await generateText({
      model: model(),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Where is my order A1042?',
    })
    const second = await generateText({
      model: model(),
      tools,
      stopWhen: stepCountIs(3),
      messages: [
        { role: 'user', content: 'Where is my order A1042?' },
        ...first.response.messages,
        { role: 'user', content: 'And order B7?' },
      ],
    })
    expect(seen).toEqual(['A1042', 'B7'])
    expect(second.text).toContain('"orderId":"B7"')
  })

  test('a request without tools is answered with words, as before', async () => {
    const { text } = await generateText({ model: createOpenAI(settings())('gpt-4o-mini'), prompt: 'Hi' })
    expect(text).toContain('Hello from the Echo dev server')
  })
})

describe('POST /api/validate-jwt-token, as Echo answers it', () => {
  const validate = (headers: Record<string, string>) =>
    fetch(`${dev.apiUrl}/api/validate-jwt-token`, { method: 'POST', headers })

  test('a valid token: whose it is, the app it was issued to, its scope', async () => {
    const response = await validate({ 'X-Echo-Token': token })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      valid: true,
      userId: '0b9e4a6c-1f3d-4c8e-a2b5-9d7f6e1c3a58',
      appId: dev.appId,
      scope: 'llm:invoke offline_access',
    })
  })

  test('Authorization: Bearer works too', async () => {
    expect((await validate({ Authorization: `Bearer ${token}` })).status).toBe(200)
  })

  test('no token: 400; a bad one: 401', async () => {
    const missing = await validate({})
    expect([missing.status, await missing.json()]).toEqual([
      400,
      { valid: false, error: 'Missing token header (use Authorization or X-Echo-Token)' },
    ])
    const bad = await validate({ 'X-Echo-Token': `${token.slice(0, -4)}AAAA` })
    expect([bad.status, await bad.json()]).toEqual([401, { valid: false, error: 'Invalid token' }])
  })
})
