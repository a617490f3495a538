// The msw Echo's router answers in shapes the clients apps use accept, whole and streamed.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { generateText, streamText } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'

import { createEchoFetch } from 'echo-rtk/client'
import { echoFixtures, echoHandlers } from 'echo-rtk/testing'

import { server } from '../support/server'

const baseURL = 'https://router.echo.test'
// As useEchoFetch() does: the user's token replaces each client's own key header.
const fetch = createEchoFetch({
  tokenProvider: { getAccessToken: () => Promise.resolve('test-token'), refreshToken: () => Promise.resolve() },
})
const settings = { baseURL, apiKey: 'echo', fetch }
const textOf = async (stream: AsyncIterable<string>) => {
  let text = ''
  for await (const piece of stream) text += piece
  return text
}

describe("echoHandlers' router, through the clients apps use", () => {
  it.each([
    ['AI SDK OpenAI (Responses API)', () => createOpenAI(settings)('gpt-4o-mini')],
    ['AI SDK OpenAI chat', () => createOpenAI(settings).chat('gpt-4o-mini')],
    ['AI SDK Anthropic', () => createAnthropic(settings)('claude-haiku-4-5')],
    ['AI SDK Google', () => createGoogleGenerativeAI(settings)('gemini-2.5-flash')],
  ])('%s: generateText and streamText give the answer', async (_name, model) => {
    server.use(...echoHandlers({ baseRouterUrl: baseURL, answer: 'Hello there, tester.' }))
    expect((await generateText({ model: model(), prompt: 'Hi' })).text).toBe('Hello there, tester.')
    expect(await textOf(streamText({ model: model(), prompt: 'Hi' }).textStream)).toBe('Hello there, tester.')
  })

  it('openai and @anthropic-ai/sdk, streamed', async () => {
    server.use(...echoHandlers({ baseRouterUrl: baseURL }))
    const openai = new OpenAI(settings)
    let text = ''
    for await (const chunk of await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    }))
      text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe(echoFixtures.answer)
    const anthropic = new Anthropic(settings)
    const message = await anthropic.messages
      .stream({ model: 'claude-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage()
    expect(message.content).toMatchObject([{ type: 'text', text: echoFixtures.answer }])
  })
})
