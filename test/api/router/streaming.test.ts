import { HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'

import type { ChatCompletionChunk } from '../../../src/api/router/openAiTypes'
import { createEchoRouter, EchoError, isAbortError } from '../../../src/client'
import { rotatingTokens } from '../../support/tokens'
import { controlledStream, jsonBody, recordRouter, ROUTER, sseResponse, userRouter, whenAborted } from './routerKit'

const messages = [{ role: 'user' as const, content: 'Hi' }]
const chunk = (content: string) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
})
const sse = (data: unknown, event?: string) =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = []
  for await (const event of events) all.push(event)
  return all
}

/** Settles with what `promise` gave, or with 'pending' if it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms = 1000): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))])
}

describe('streamed answers', () => {
  it('reads a chat stream as parsed chunks up to [DONE], from an answer with no Content-Type', async () => {
    const seen = recordRouter(() => sseResponse([{ data: chunk('Hel') }, { data: chunk('lo') }], { done: true }))
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    expect(stream.response.status).toBe(200)
    expect(stream.response.headers.get('content-type')).toBeNull()
    const chunks = await collect(stream)
    expect(chunks.map((c) => c.choices[0]?.delta.content).join('')).toBe('Hello')
    expect(await jsonBody(seen[0])).toEqual({ model: 'gpt-4o', messages, stream: true })
  })

  it('decides by the stream flag, not by the Content-Type the router happens to send', async () => {
    recordRouter(() => new HttpResponse(sse(chunk('x')), { headers: { 'Content-Type': 'application/json' } }))
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    expect(await collect(stream)).toEqual([chunk('x')])
  })

  it('stops at [DONE] even if the connection stays open, and closes it', async () => {
    const answer = controlledStream()
    const seen = recordRouter(() => answer.response)
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    answer.push(sse(chunk('a')) + 'data: [DONE]\n\n')
    expect(await within(collect(stream))).toEqual([chunk('a')])
    expect(await within(whenAborted(seen[0]?.signal))).not.toBe('pending')
  })

  it('hands over each event as soon as its bytes arrive, while the rest is still to come', async () => {
    const answer = controlledStream()
    recordRouter(() => answer.response)
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    const events = stream[Symbol.asyncIterator]()
    answer.push(sse(chunk('first')))
    expect(await within(events.next())).toEqual({ done: false, value: chunk('first') })
    answer.push('data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o",')
    const second = events.next()
    expect(await within(second, 50)).toBe('pending')
    answer.push('"choices":[]}\n\n')
    expect(await within(second)).toEqual({ done: false, value: { ...chunk(''), choices: [] } })
    answer.close()
    expect(await within(events.next())).toEqual({ done: true, value: undefined })
  })

  it('streams Anthropic messages with their event names, the API version and the default max_tokens', async () => {
    const events = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'm1',
            type: 'message',
            role: 'assistant',
            content: [],
            model: 'claude',
            stop_reason: null,
            usage: { input_tokens: 3, output_tokens: 0 },
          },
        },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi!' } },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]
    const seen = recordRouter(() => sseResponse(events))
    const stream = await userRouter().messages.create({ model: 'claude-sonnet-4-5', messages, stream: true })
    expect((await collect(stream)).map((e) => e.type)).toEqual(['message_start', 'content_block_delta', 'message_stop'])
    expect(seen[0]!.url).toBe('/messages')
    expect(seen[0]!.headers.get('anthropic-version')).toBe('2023-06-01')
    expect(await jsonBody(seen[0])).toEqual({ model: 'claude-sonnet-4-5', messages, stream: true, max_tokens: 4096 })
  })

  it('streams Google content as server-sent events (alt=sse), always, with no stream flag in the body', async () => {
    const piece = (text: string) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] } }] })
    const seen = recordRouter(() => sseResponse([{ data: piece('Bon') }, { data: piece('jour') }]))
    const stream = await userRouter().google.streamGenerateContent('gemini-2.0-flash', {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    })
    expect((await collect(stream)).map((e) => e.candidates?.[0]?.content?.parts[0]?.text).join('')).toBe('Bonjour')
    expect(seen[0]!.url).toBe('/models/gemini-2.0-flash:streamGenerateContent?alt=sse')
    expect(await jsonBody(seen[0])).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] })
  })

  it('streams responses and text completions too', async () => {
    recordRouter(() =>
      sseResponse([{ event: 'response.output_text.delta', data: { type: 'response.output_text.delta', delta: 'Hi' } }]),
    )
    const router = userRouter()
    expect(await collect(await router.responses.create({ model: 'gpt-4o', input: 'Hi', stream: true }))).toEqual([
      { type: 'response.output_text.delta', delta: 'Hi' },
    ])
    recordRouter(() =>
      sseResponse(
        [{ data: { id: 't', object: 'text_completion', choices: [{ index: 0, text: 'ok', finish_reason: null }] } }],
        { done: true },
      ),
    )
    expect(
      await collect(await router.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say', stream: true })),
    ).toHaveLength(1)
  })

  it('can be read only once', async () => {
    recordRouter(() => sseResponse([{ data: chunk('a') }]))
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    await collect(stream)
    expect(() => stream[Symbol.asyncIterator]()).toThrow('This stream has already been read')
  })
})

describe('stopping a stream stops the request, so the user stops paying', () => {
  it('a break out of the loop cancels the HTTP request', async () => {
    const answer = controlledStream()
    const seen = recordRouter(() => answer.response)
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    answer.push(sse(chunk('one')) + sse(chunk('two')))
    const received: ChatCompletionChunk[] = []
    for await (const event of stream) {
      received.push(event)
      break
    }
    expect(received).toEqual([chunk('one')])
    expect(await within(whenAborted(seen[0]?.signal))).not.toBe('pending')
  })

  it('a break cancels the reader of the response body itself', async () => {
    const answer = controlledStream()
    const fetch = () => Promise.resolve(answer.response)
    const router = createEchoRouter({ baseRouterUrl: ROUTER, tokenProvider: rotatingTokens().provider, fetch })
    const stream = await router.chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    answer.push(sse(chunk('one')))
    for await (const _event of stream) break
    expect(await within(answer.cancelled)).not.toBe('pending')
  })

  it('an abort mid-stream cancels the request and ends the loop with an abort error', async () => {
    const answer = controlledStream()
    const seen = recordRouter(() => answer.response)
    const controller = new AbortController()
    const stream = await userRouter().chat.completions.create(
      { model: 'gpt-4o', messages, stream: true },
      { signal: controller.signal },
    )
    answer.push(sse(chunk('one')))
    const received: unknown[] = []
    const reading = (async () => {
      for await (const event of stream) {
        received.push(event)
        controller.abort()
      }
    })()
    const error = await reading.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(received).toEqual([chunk('one')])
    expect(error).toBeInstanceOf(EchoError)
    expect(isAbortError(error)).toBe(true)
    expect((error as EchoError).message).toBe('Request aborted while creating chat completion')
    expect(await within(whenAborted(seen[0]?.signal))).not.toBe('pending')
  })

  it('an abort before the router answers rejects the call with an abort error', async () => {
    const controller = new AbortController()
    recordRouter(async () => {
      controller.abort()
      await new Promise((resolve) => setTimeout(resolve, 50))
      return sseResponse([{ data: chunk('late') }])
    })
    const call = userRouter().chat.completions.create(
      { model: 'gpt-4o', messages, stream: true },
      { signal: controller.signal },
    )
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isAbortError(error)).toBe(true)
  })
})

describe('an error mid-stream surfaces as an EchoError, after the events before it', () => {
  it('an OpenAI-style error object', async () => {
    recordRouter(() =>
      sseResponse([
        { data: chunk('partial') },
        { data: { error: { message: 'The upstream model is overloaded', type: 'server_error' } } },
      ]),
    )
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    const received: unknown[] = []
    const error = await (async () => {
      for await (const event of stream) received.push(event)
    })().then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(received).toEqual([chunk('partial')])
    expect(error).toBeInstanceOf(EchoError)
    expect(error).toMatchObject({
      code: 'UNKNOWN_ERROR',
      endpoint: '/chat/completions',
      message: 'The model stream failed: The upstream model is overloaded while creating chat completion',
    })
  })

  it('an Anthropic error event', async () => {
    recordRouter(() =>
      sseResponse([
        { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      ]),
    )
    const stream = await userRouter().messages.create({ model: 'claude-sonnet-4-5', messages, stream: true })
    await expect(collect(stream)).rejects.toMatchObject({
      code: 'UNKNOWN_ERROR',
      message: 'The model stream failed: Overloaded while creating message',
      endpoint: '/messages',
    })
  })

  it('a connection that breaks mid-stream is a NETWORK_ERROR, and the events before it were delivered', async () => {
    const answer = controlledStream()
    recordRouter(() => answer.response)
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    answer.push(sse(chunk('partial')))
    const events = stream[Symbol.asyncIterator]()
    expect(await events.next()).toEqual({ done: false, value: chunk('partial') })
    answer.fail(new TypeError('terminated'))
    const error = await events.next().then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: 'Network error while creating chat completion',
      endpoint: '/chat/completions',
    })
  })

  it('an event that is not JSON', async () => {
    recordRouter(() => new HttpResponse('data: <html>oops</html>\n\n'))
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    await expect(collect(stream)).rejects.toThrow(
      'The router sent an event that is not JSON: <html>oops</html> while creating chat completion',
    )
  })
})
