import { describe, expect, it } from 'vitest'

import { createEchoFetch, createEchoRouter, EchoError, type EchoRouter } from '../../../src/client'
import { recordRouter, userRouter } from './routerKit'

type Call = (router: EchoRouter, body: unknown) => Promise<unknown>

const calls: [string, Call][] = [
  ['chat.completions.create', (router, body) => router.chat.completions.create(body as never)],
  ['responses.create', (router, body) => router.responses.create(body as never)],
  ['completions.create', (router, body) => router.completions.create(body as never)],
  ['embeddings.create', (router, body) => router.embeddings.create(body as never)],
  ['images.generate', (router, body) => router.images.generate(body as never)],
  ['audio.transcriptions.create', (router, body) => router.audio.transcriptions.create(body as never)],
  ['audio.speech.create', (router, body) => router.audio.speech.create(body as never)],
  ['messages.create', (router, body) => router.messages.create(body as never)],
]

/** Calls `call` and hands back what it rejected with, checking it did not throw at the caller. */
async function rejectionOf(call: () => Promise<unknown>): Promise<unknown> {
  let promise: Promise<unknown>
  try {
    promise = call()
  } catch (error) {
    throw new Error(`threw at the caller instead of rejecting: ${String(error)}`)
  }
  return promise.then(
    () => {
      throw new Error('resolved')
    },
    (error: unknown) => error,
  )
}

describe('bad input at the router: an EchoError, and nothing sent', () => {
  it.each(calls)('%s given no body, null or a body without a model', async (_name, call) => {
    const seen = recordRouter()
    for (const body of [undefined, null, 'hello', { messages: [] }, { model: '' }, { model: 42 }]) {
      const error = await rejectionOf(() => call(userRouter(), body))
      expect(error).toBeInstanceOf(EchoError)
      expect((error as EchoError).message).toMatch(
        /^(The request body must be an object with a model|A model is required, as a non-empty string)/,
      )
      expect((error as EchoError).message).toMatch(/ while [a-z ]+$/)
    }
    expect(seen).toEqual([])
  })

  it.each([
    [
      'google.generateContent',
      (router: EchoRouter, model: unknown, body: unknown) =>
        router.google.generateContent(model as never, body as never),
    ],
    [
      'google.streamGenerateContent',
      (router: EchoRouter, model: unknown, body: unknown) =>
        router.google.streamGenerateContent(model as never, body as never),
    ],
    [
      'google.predict',
      (router: EchoRouter, model: unknown, body: unknown) => router.google.predict(model as never, body as never),
    ],
    [
      'google.embedContents',
      (router: EchoRouter, model: unknown, body: unknown) => router.google.embedContents(model as never, body as never),
    ],
  ])('%s given no model, or no body', async (_name, call) => {
    const seen = recordRouter()
    for (const [model, body] of [
      [undefined, { contents: [] }],
      ['', { contents: [] }],
      ['gemini-2.0-flash', undefined],
      ['gemini-2.0-flash', null],
    ]) {
      const error = await rejectionOf(() => call(userRouter(), model, body))
      expect(error).toBeInstanceOf(EchoError)
    }
    expect(seen).toEqual([])
  })

  it('google.embedContents refuses an input that is neither text nor a request', async () => {
    const seen = recordRouter()
    const error = await rejectionOf(() =>
      userRouter().google.embedContents('text-embedding-004', ['fine', null as never]),
    )
    expect(error).toMatchObject({
      name: 'EchoError',
      message: 'Each input must be a text or a request object (got null) while embedding contents',
    })
    expect(seen).toEqual([])
  })

  it.each([{}, { embeddings: null }, null])(
    'google.embedContents given an answer without embeddings (%j) rejects with an EchoError',
    async (answer) => {
      recordRouter(() => Response.json(answer))
      const error = await rejectionOf(() => userRouter().google.embedContents('text-embedding-004', ['hello']))
      expect(error).toMatchObject({
        name: 'EchoError',
        message: 'The router answered without embeddings while embedding contents',
      })
    },
  )

  it('a transcription without a recording is refused before sending', async () => {
    const seen = recordRouter()
    const error = await rejectionOf(() => userRouter().audio.transcriptions.create({ model: 'whisper-1' } as never))
    expect(error).toMatchObject({
      name: 'EchoError',
      message: 'The recording must be given as file, a Blob or File while transcribing audio',
    })
    expect(seen).toEqual([])
  })

  it('null options are the same as none', async () => {
    recordRouter()
    await expect(
      userRouter().chat.completions.create({ model: 'gpt-4o', messages: [] }, null as never),
    ).resolves.toEqual({})
  })

  it.each([
    ['createEchoRouter', (options: unknown) => createEchoRouter(options as never)],
    ['createEchoFetch', (options: unknown) => createEchoFetch(options as never)],
  ])('%s without a token provider says what it needs', (name, create) => {
    for (const options of [{}, undefined, { tokenProvider: {} }]) {
      let thrown: unknown
      try {
        create(options)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(EchoError)
      expect((thrown as EchoError).message).toMatch(
        new RegExp(`^${name} needs a tokenProvider with getAccessToken\\(\\) and refreshToken\\(\\)`),
      )
    }
  })
})
