import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'

import { createEchoRouter, DEFAULT_ROUTER_URL, type EchoRouter } from '../../../src/client'
import { server } from '../../support/server'
import { rotatingTokens } from '../../support/tokens'
import { jsonBody, recordRouter, ROUTER, userRouter } from './routerKit'

const messages = [{ role: 'user' as const, content: 'Hi' }]

describe('the router sends each call to its endpoint at the router root, with the user token', () => {
  it.each<[string, (router: EchoRouter) => Promise<unknown>, string, Record<string, unknown>]>([
    [
      'chat.completions.create',
      (r) => r.chat.completions.create({ model: 'gpt-4o', messages }),
      '/chat/completions',
      { model: 'gpt-4o', messages },
    ],
    [
      'responses.create',
      (r) => r.responses.create({ model: 'gpt-4o', input: 'Hi' }),
      '/responses',
      { model: 'gpt-4o', input: 'Hi' },
    ],
    [
      'completions.create',
      (r) => r.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say' }),
      '/completions',
      { model: 'gpt-3.5-turbo-instruct', prompt: 'Say' },
    ],
    [
      'embeddings.create',
      (r) => r.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] }),
      '/embeddings',
      { model: 'text-embedding-3-small', input: ['a', 'b'] },
    ],
    [
      'images.generate',
      (r) => r.images.generate({ model: 'gpt-image-1', prompt: 'a cat', n: 1, size: '512x512' }),
      '/images/generations',
      { model: 'gpt-image-1', prompt: 'a cat', n: 1, size: '512x512' },
    ],
    [
      'messages.create',
      (r) => r.messages.create({ model: 'claude-sonnet-4-5', messages, max_tokens: 100 }),
      '/messages',
      { model: 'claude-sonnet-4-5', messages, max_tokens: 100 },
    ],
    [
      'google.generateContent',
      (r) => r.google.generateContent('gemini-2.0-flash', { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
      '/models/gemini-2.0-flash:generateContent',
      { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    ],
    [
      'google.predict',
      (r) =>
        r.google.predict('models/imagen-3.0-generate-002', {
          instances: [{ prompt: 'a cat' }],
          parameters: { sampleCount: 2, aspectRatio: '16:9' },
        }),
      '/models/imagen-3.0-generate-002:predict',
      { instances: [{ prompt: 'a cat' }], parameters: { sampleCount: 2, aspectRatio: '16:9' } },
    ],
  ])('%s: POST %s', async (_name, call, path, body) => {
    const seen = recordRouter(() => HttpResponse.json({ answered: true }))
    await expect(call(userRouter())).resolves.toEqual({ answered: true })
    expect(seen).toHaveLength(1)
    expect(seen[0]!.method).toBe('POST')
    expect(seen[0]!.url).toBe(path)
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer user-token')
    expect(seen[0]!.headers.get('content-type')).toBe('application/json')
    expect(await jsonBody(seen[0])).toEqual(body)
  })

  it('names the Anthropic API version on messages calls', async () => {
    const seen = recordRouter(() => HttpResponse.json({}))
    await userRouter().messages.create({ model: 'claude-sonnet-4-5', messages })
    expect(seen[0]!.headers.get('anthropic-version')).toBe('2023-06-01')
  })

  it('goes to the default router host when given none', async () => {
    const hosts: string[] = []
    server.use(
      http.post(`${DEFAULT_ROUTER_URL}/chat/completions`, ({ request }) => {
        hosts.push(new URL(request.url).origin)
        return HttpResponse.json({})
      }),
    )
    await createEchoRouter({ tokenProvider: rotatingTokens().provider }).chat.completions.create({
      model: 'm',
      messages,
    })
    expect(hosts).toEqual([DEFAULT_ROUTER_URL])
  })

  it('refuses a baseRouterUrl that is not an absolute http(s) URL, naming it', () => {
    expect(() => createEchoRouter({ baseRouterUrl: 'router.test', tokenProvider: rotatingTokens().provider })).toThrow(
      'EchoConfig.baseRouterUrl must be an absolute http(s) URL, got "router.test"',
    )
  })
})

describe('the defaults where the caller gives none', () => {
  it('Anthropic messages get max_tokens 4096', async () => {
    const seen = recordRouter()
    await userRouter().messages.create({ model: 'claude-sonnet-4-5', messages })
    expect(await jsonBody(seen[0])).toEqual({ model: 'claude-sonnet-4-5', messages, max_tokens: 4096 })
  })

  it('images get n 4 and size 1024x1024', async () => {
    const seen = recordRouter()
    await userRouter().images.generate({ model: 'gpt-image-1', prompt: 'a cat' })
    expect(await jsonBody(seen[0])).toEqual({ model: 'gpt-image-1', prompt: 'a cat', n: 4, size: '1024x1024' })
  })

  it('Google predict gets sampleCount 4 and aspect ratio 1:1, keeping the parameters given', async () => {
    const seen = recordRouter()
    await userRouter().google.predict('imagen-3.0-generate-002', {
      instances: [{ prompt: 'a cat' }],
      parameters: { personGeneration: 'dont_allow' },
    })
    expect(await jsonBody(seen[0])).toEqual({
      instances: [{ prompt: 'a cat' }],
      parameters: { personGeneration: 'dont_allow', sampleCount: 4, aspectRatio: '1:1' },
    })
  })
})

describe('audio', () => {
  it('sends a transcription as multipart: the recording as a named file part, the other fields as text', async () => {
    const seen = recordRouter(() => HttpResponse.json({ text: 'hello world' }))
    const recording = new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'audio/webm;codecs=opus' })
    const transcript = await userRouter().audio.transcriptions.create({
      file: recording,
      model: 'whisper-1',
      language: 'en',
      temperature: 0,
      timestamp_granularities: ['word', 'segment'],
    })
    expect(transcript).toEqual({ text: 'hello world' })
    expect(seen[0]!.url).toBe('/audio/transcriptions')
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer user-token')
    expect(seen[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)
    const form = await seen[0]!.request.formData()
    const file = form.get('file') as File
    expect(file.name).toBe('audio.webm')
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([1, 2, 3, 4])
    expect(form.get('model')).toBe('whisper-1')
    expect(form.get('language')).toBe('en')
    expect(form.get('temperature')).toBe('0')
    expect(form.getAll('timestamp_granularities[]')).toEqual(['word', 'segment'])
  })

  it('keeps the name of a File, and answers a plain-text transcript format as { text }', async () => {
    const seen = recordRouter(() => HttpResponse.text('1\n00:00:00,000 --> 00:00:01,000\nhello\n'))
    const transcript = await userRouter().audio.transcriptions.create({
      file: new File(['abc'], 'memo.m4a', { type: 'audio/mp4' }),
      model: 'whisper-1',
      response_format: 'srt',
    })
    expect(transcript).toEqual({ text: '1\n00:00:00,000 --> 00:00:01,000\nhello\n' })
    expect(((await seen[0]!.request.formData()).get('file') as File).name).toBe('memo.m4a')
  })

  it('answers speech with the audio as a Blob', async () => {
    const seen = recordRouter(
      () => new HttpResponse(new Uint8Array([0xff, 0xfb, 0x90]), { headers: { 'Content-Type': 'audio/mpeg' } }),
    )
    const audio = await userRouter().audio.speech.create({ model: 'gpt-4o-mini-tts', input: 'Hello', voice: 'alloy' })
    expect(audio).toBeInstanceOf(Blob)
    expect(audio.type).toBe('audio/mpeg')
    expect([...new Uint8Array(await audio.arrayBuffer())]).toEqual([0xff, 0xfb, 0x90])
    expect(seen[0]!.url).toBe('/audio/speech')
    expect(await jsonBody(seen[0])).toEqual({ model: 'gpt-4o-mini-tts', input: 'Hello', voice: 'alloy' })
  })
})

describe('Google embeddings', () => {
  it('splits 5,000 inputs into requests of 2,048, 2,048 and 904, sent in order, and joins the results in input order', async () => {
    const inputs = Array.from({ length: 5000 }, (_, index) => `text ${index}`)
    const seen = recordRouter(async (request) => {
      const { requests } = (await request.json()) as { requests: { content: { parts: { text: string }[] } }[] }
      // Each embedding carries the number of its input, so the order can be checked at the end.
      return HttpResponse.json({
        embeddings: requests.map(({ content }) => ({ values: [Number(content.parts[0]!.text.slice(5))] })),
      })
    })
    const { embeddings } = await userRouter().google.embedContents('text-embedding-004', inputs)
    expect(seen.map((s) => s.url)).toEqual(Array(3).fill('/models/text-embedding-004:batchEmbedContents'))
    const sizes = await Promise.all(
      seen.map(async (s) => ((await jsonBody(s)) as { requests: unknown[] }).requests.length),
    )
    expect(sizes).toEqual([2048, 2048, 904])
    expect(embeddings.map((e) => e.values[0])).toEqual(inputs.map((_, index) => index))
  })

  it('sends text as content parts under the model name, and keeps full requests as given', async () => {
    const seen = recordRouter(() => HttpResponse.json({ embeddings: [{ values: [1] }, { values: [2] }] }))
    await userRouter().google.embedContents('text-embedding-004', [
      'hello',
      { content: { parts: [{ text: 'query' }] }, taskType: 'RETRIEVAL_QUERY' },
    ])
    expect(await jsonBody(seen[0])).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'hello' }] } },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'query' }] }, taskType: 'RETRIEVAL_QUERY' },
      ],
    })
  })

  it('stops after a failed batch, so the batches after it are never sent nor billed', async () => {
    const seen = recordRouter(() => new HttpResponse('<html>Payment Required</html>', { status: 402 }))
    await expect(userRouter().google.embedContents('text-embedding-004', Array(3000).fill('x'))).rejects.toMatchObject({
      code: 'HTTP_402',
    })
    expect(seen).toHaveLength(1)
  })

  it('sends nothing for no inputs', async () => {
    const seen = recordRouter()
    await expect(userRouter().google.embedContents('text-embedding-004', [])).resolves.toEqual({ embeddings: [] })
    expect(seen).toEqual([])
  })
})

it('uses the router host as given, without a trailing slash', async () => {
  const seen = recordRouter()
  await createEchoRouter({ baseRouterUrl: `${ROUTER}/`, tokenProvider: rotatingTokens().provider }).embeddings.create({
    model: 'm',
    input: 'x',
  })
  expect(seen[0]!.url).toBe('/embeddings')
})
