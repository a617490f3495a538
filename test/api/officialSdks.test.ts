import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import Anthropic from '@anthropic-ai/sdk'
import { http, passthrough } from 'msw'
import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { createEchoFetch } from '../../src/client'
import { server as msw } from '../support/server'
import { rotatingTokens } from '../support/tokens'

interface Received {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

/**
 * A loopback stand-in for Echo's router: it takes only the token in `validToken`, answers chat
 * completions and Anthropic messages, and streams them as server-sent events with no Content-Type,
 * as the router does.
 */
function startRouter(): Promise<{ server: Server; url: string; received: Received[]; validToken: { value: string } }> {
  const received: Received[] = []
  const validToken = { value: 'user-token' }
  const server = createServer((request, response) => {
    let text = ''
    request.on('data', (chunk: Buffer) => (text += chunk.toString()))
    request.on('end', () => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body })
      if (request.headers.authorization !== `Bearer ${validToken.value}`) {
        response.writeHead(401, { 'Content-Type': 'application/json' }).end('{"message":"Unauthorized"}')
        return
      }
      const answer = routeAnswer(request.url ?? '', body)
      if (answer === undefined) {
        response.writeHead(404).end()
        return
      }
      if (body.stream === true) {
        response.writeHead(200)
        for (const event of answer.events)
          response.write(
            `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${JSON.stringify(event.data)}\n\n`,
          )
        response.end(answer.done ? 'data: [DONE]\n\n' : '')
      } else {
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.whole))
      }
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, validToken }),
    ),
  )
}

interface RouteAnswer {
  whole: unknown
  events: { event?: string; data: unknown }[]
  done: boolean
}

function routeAnswer(path: string, body: Record<string, unknown>): RouteAnswer | undefined {
  const model = String(body.model)
  if (path === '/chat/completions') {
    const chunk = (content: string, finish: string | null) => ({
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model,
      choices: [{ index: 0, delta: { content }, finish_reason: finish }],
    })
    return {
      whole: {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
      },
      events: [{ data: chunk('Hel', null) }, { data: chunk('lo!', 'stop') }],
      done: true,
    }
  }
  if (path === '/v1/messages') {
    const message = {
      id: 'm1',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 2 },
    }
    return {
      whole: message,
      events: [
        {
          event: 'message_start',
          data: {
            type: 'message_start',
            message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 0 } },
          },
        },
        {
          event: 'content_block_start',
          data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        },
        {
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
        },
        {
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo!' } },
        },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        {
          event: 'message_delta',
          data: {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 2 },
          },
        },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
      done: false,
    }
  }
  return undefined
}

let router: Awaited<ReturnType<typeof startRouter>>

beforeAll(async () => {
  router = await startRouter()
})
afterAll(() => new Promise<void>((resolve) => router.server.close(() => resolve())))
beforeEach(() => {
  router.received.length = 0
  router.validToken.value = 'user-token'
  // These requests go to a real server: msw lets them through instead of calling them unhandled.
  msw.use(http.all(`${router.url}/*`, () => passthrough()))
})

const credentials = (received: Received[]) =>
  received.map(({ headers }) => ({
    authorization: headers.authorization,
    xApiKey: headers['x-api-key'],
    retry: headers['x-retry'],
  }))

describe('the official openai client through createEchoFetch', () => {
  // baseURL is the router root: openai appends `/chat/completions` to it.
  const openai = (tokens = rotatingTokens('user-token').provider) =>
    new OpenAI({
      apiKey: 'echo',
      baseURL: router.url,
      fetch: createEchoFetch({ tokenProvider: tokens }),
      maxRetries: 0,
    })

  it('creates a chat completion with the user token in place of the API key', async () => {
    const completion = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(completion.choices[0]?.message.content).toBe('Hello!')
    expect(router.received.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /chat/completions'])
    expect(credentials(router.received)).toEqual([
      { authorization: 'Bearer user-token', xApiKey: undefined, retry: undefined },
    ])
  })

  it('streams a chat completion', async () => {
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe('Hello!')
    expect(router.received[0]?.body.stream).toBe(true)
    expect(credentials(router.received)).toEqual([
      { authorization: 'Bearer user-token', xApiKey: undefined, retry: undefined },
    ])
  })

  it('on a 401 refreshes the token once and retries once, marked', async () => {
    const { provider, state } = rotatingTokens('token-1')
    router.validToken.value = 'token-2'
    const completion = await openai(provider).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(completion.choices[0]?.message.content).toBe('Hello!')
    expect(state.refreshCalls).toBe(1)
    expect(credentials(router.received)).toEqual([
      { authorization: 'Bearer token-1', xApiKey: undefined, retry: undefined },
      { authorization: 'Bearer token-2', xApiKey: undefined, retry: 'true' },
    ])
    expect(router.received[1]?.body).toEqual(router.received[0]?.body)
  })
})

describe('the official @anthropic-ai/sdk client through createEchoFetch', () => {
  // baseURL is the router root: the SDK always asks for `/v1/messages`, which Echo's router serves
  // as it serves `/messages`.
  const anthropic = (tokens = rotatingTokens('user-token').provider) =>
    new Anthropic({
      apiKey: 'echo',
      baseURL: router.url,
      fetch: createEchoFetch({ tokenProvider: tokens }),
      maxRetries: 0,
    })

  it('creates a message with the user token and no x-api-key', async () => {
    const message = await anthropic().messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(message.content).toEqual([{ type: 'text', text: 'Hello!' }])
    expect(router.received.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/messages'])
    expect(credentials(router.received)).toEqual([
      { authorization: 'Bearer user-token', xApiKey: undefined, retry: undefined },
    ])
  })

  it('streams a message', async () => {
    const stream = await anthropic().messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    })
    let text = ''
    for await (const event of stream)
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text
    expect(text).toBe('Hello!')
    expect(credentials(router.received)).toEqual([
      { authorization: 'Bearer user-token', xApiKey: undefined, retry: undefined },
    ])
  })

  it('on a 401 refreshes the token once and retries once, marked', async () => {
    const { provider, state } = rotatingTokens('token-1')
    router.validToken.value = 'token-2'
    const message = await anthropic(provider).messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(message.content).toEqual([{ type: 'text', text: 'Hello!' }])
    expect(state.refreshCalls).toBe(1)
    expect(credentials(router.received).map((c) => [c.authorization, c.retry])).toEqual([
      ['Bearer token-1', undefined],
      ['Bearer token-2', 'true'],
    ])
  })
})
