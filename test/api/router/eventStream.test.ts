import { getEventListeners } from 'node:events'

import { HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'

import { createEchoRouter, isAbortError } from '../../../src/client'
import { rotatingTokens } from '../../support/tokens'
import { controlledStream, recordRouter, ROUTER, sseResponse, userRouter, whenAborted } from './routerKit'

const messages = [{ role: 'user' as const, content: 'Hi' }]
const chunk = (content: string) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
})

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = []
  for await (const event of events) all.push(event)
  return all
}

/** A router whose every call gets `answer`, through the caller's own `fetch`. */
function routerAnswering(answer: () => Response) {
  return createEchoRouter({
    baseRouterUrl: ROUTER,
    tokenProvider: rotatingTokens().provider,
    fetch: () => Promise.resolve(answer()),
  })
}

describe('a stream and its caller signal', () => {
  it('a streaming call given an already-aborted signal sends nothing and rejects with an abort error', async () => {
    const seen = recordRouter(() => sseResponse([{ data: chunk('never') }]))
    const controller = new AbortController()
    controller.abort()
    const error = await userRouter()
      .chat.completions.create({ model: 'gpt-4o', messages, stream: true }, { signal: controller.signal })
      .catch((e: unknown) => e)
    expect(isAbortError(error)).toBe(true)
    expect(seen).toEqual([])
  })

  it('a stream read to its end leaves no listener on the caller signal, which may outlive many calls', async () => {
    recordRouter(() => sseResponse([{ data: chunk('a') }], { done: true }))
    const controller = new AbortController()
    const stream = await userRouter().chat.completions.create(
      { model: 'gpt-4o', messages, stream: true },
      { signal: controller.signal },
    )
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    await collect(stream)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('a stream the caller aborts before reading it ends its request and lets go of the caller signal', async () => {
    const answer = controlledStream()
    const seen = recordRouter(() => answer.response)
    const controller = new AbortController()
    await userRouter().chat.completions.create(
      { model: 'gpt-4o', messages, stream: true },
      { signal: controller.signal },
    )
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    controller.abort()
    await whenAborted(seen[0]?.signal)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('a streaming call the router refuses leaves no listener on the caller signal', async () => {
    recordRouter(() => HttpResponse.json({ error: 'boom' }, { status: 500 }))
    const controller = new AbortController()
    await expect(
      userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true }, { signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'HTTP_500' })
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })
})

describe('what a stream holds', () => {
  it('an OK answer with no body is a stream with no events', async () => {
    const stream = await routerAnswering(() => new Response(null, { status: 200 })).chat.completions.create({
      model: 'gpt-4o',
      messages,
      stream: true,
    })
    expect(await collect(stream)).toEqual([])
  })

  it('an event named error ends the stream with an EchoError, even when its payload does not look like one', async () => {
    recordRouter(() => sseResponse([{ event: 'error', data: { message: 'Overloaded' } }]))
    const stream = await userRouter().messages.create({ model: 'claude-sonnet-4-5', messages, stream: true })
    await expect(collect(stream)).rejects.toMatchObject({
      code: 'UNKNOWN_ERROR',
      message: 'The model stream failed: Overloaded while creating message',
      endpoint: '/messages',
    })
  })

  it('an event that is not JSON is quoted whole up to 200 characters', async () => {
    const data = 'x'.repeat(200)
    recordRouter(() => new HttpResponse(`data: ${data}\n\n`))
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    await expect(collect(stream)).rejects.toMatchObject({
      code: 'UNKNOWN_ERROR',
      message: `The router sent an event that is not JSON: ${data} while creating chat completion`,
    })
  })

  it('an event that is not JSON and longer than 200 characters is quoted by its first 200, then ...', async () => {
    recordRouter(() => new HttpResponse(`data: ${'x'.repeat(200)}yz\n\n`))
    const stream = await userRouter().chat.completions.create({ model: 'gpt-4o', messages, stream: true })
    await expect(collect(stream)).rejects.toThrow(
      `The router sent an event that is not JSON: ${'x'.repeat(200)}... while creating chat completion`,
    )
  })
})
