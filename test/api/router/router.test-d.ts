import { expectTypeOf, test } from 'vitest'

import { createEchoRouter, type EchoStream, type TokenProvider } from '../../../src/client'
import type { AnthropicMessage, AnthropicStreamEvent } from '../../../src/api/router/anthropicTypes'
import type { GenerateContentResponse } from '../../../src/api/router/googleTypes'
import type { ChatCompletion, ChatCompletionChunk } from '../../../src/api/router/openAiTypes'

declare const tokenProvider: TokenProvider
const router = createEchoRouter({ tokenProvider })
const messages = [{ role: 'user' as const, content: 'Hi' }]

test('stream: true answers a stream of chunks; no stream flag answers the whole completion', () => {
  expectTypeOf(router.chat.completions.create({ model: 'm', messages, stream: true })).resolves.toEqualTypeOf<
    EchoStream<ChatCompletionChunk>
  >()
  expectTypeOf(router.chat.completions.create({ model: 'm', messages })).resolves.toEqualTypeOf<ChatCompletion>()
  expectTypeOf(
    router.chat.completions.create({ model: 'm', messages, stream: false }),
  ).resolves.toEqualTypeOf<ChatCompletion>()
})

test('a flag only known at run time answers either', () => {
  const stream = Math.random() > 0.5
  expectTypeOf(router.messages.create({ model: 'm', messages, stream })).resolves.toEqualTypeOf<
    AnthropicMessage | EchoStream<AnthropicStreamEvent>
  >()
})

test('a stream yields typed events and exposes the raw response', () => {
  expectTypeOf<EchoStream<ChatCompletionChunk>>().toExtend<AsyncIterable<ChatCompletionChunk>>()
  expectTypeOf<EchoStream<ChatCompletionChunk>['response']>().toEqualTypeOf<Response>()
  expectTypeOf(router.google.streamGenerateContent('gemini', { contents: [] })).resolves.toEqualTypeOf<
    EchoStream<GenerateContentResponse>
  >()
})

test('answers are typed, never any', () => {
  expectTypeOf(
    router.audio.speech.create({ model: 'tts-1', input: 'Hi', voice: 'alloy' }),
  ).resolves.toEqualTypeOf<Blob>()
  expectTypeOf(router.embeddings.create({ model: 'm', input: 'x' }))
    .resolves.toHaveProperty('data')
    .items.toHaveProperty('index')
    .toEqualTypeOf<number>()
  expectTypeOf(router.google.embedContents('m', ['x']))
    .resolves.toHaveProperty('embeddings')
    .items.toHaveProperty('values')
    .toEqualTypeOf<number[]>()
  expectTypeOf<ChatCompletion['choices'][number]['message']['content']>().toEqualTypeOf<string | null>()
})

test('a body must name its model, and a transcription its file', () => {
  // @ts-expect-error model is required
  void router.chat.completions.create({ messages })
  // @ts-expect-error file is required
  void router.audio.transcriptions.create({ model: 'whisper-1' })
})
