import { connect } from 'node:net'

import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'

import { startDevServer, type RunningDevServer } from '../../dev-server/startDevServer.mjs'
import {
  anyNumber,
  anyString,
  bearer,
  expressErrorPage,
  getBalance,
  getFreeTier,
  letLoopbackThrough,
  setBalance,
  signIn,
  stringContaining,
  stringMatching,
} from './devServerClient'

const STREAM_DELAY_MS = 8

let dev: RunningDevServer
let token: string

beforeAll(async () => {
  // modelsRoute: the dev server's own /api/v1/supported-models, which one test checks against the router.
  dev = await startDevServer({
    port: 0,
    routerPort: 0,
    accessTtl: 300,
    autoLogin: true,
    streamDelayMs: STREAM_DELAY_MS,
    modelsRoute: true,
  })
  letLoopbackThrough()
  token = (await signIn(dev)).access_token
})
afterAll(() => dev.close())
beforeEach(async () => {
  letLoopbackThrough()
  // The paid balance alone, so a call moves it; the free-tier tests give the free tier back.
  await setBalance(dev, 10, 0)
})

const call = (path: string, body: unknown, headers: Record<string, string> = bearer(token)) =>
  fetch(`${dev.routerUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

/** Sends a request on a bare socket, reads until the first streamed token, then closes the socket. */
function readThenHangUp(origin: URL, path: string, body: string, accessToken: string) {
  return new Promise<void>((resolve, reject) => {
    const socket = connect(Number(origin.port), origin.hostname)
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no streamed token within 2 s; got ${received}`))
    }, 2000)
    socket.on('error', reject)
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8')
      if (received.includes('"content":"Hello "')) {
        clearTimeout(timer)
        socket.destroy()
        resolve()
      }
    })
    socket.write(
      [
        `POST ${path} HTTP/1.1`,
        `Host: ${origin.host}`,
        `Authorization: Bearer ${accessToken}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        body,
      ].join('\r\n'),
    )
  })
}

const chat = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Tell me about Echo' }],
  ...extra,
})

/** Reads a stream to its end, noting when each chunk arrived (bounded by the stream's end). */
async function readChunks(response: Response) {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  const chunks: { text: string; at: number }[] = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push({ text: decoder.decode(value, { stream: true }), at: performance.now() })
  }
  return chunks
}

interface Usage {
  prompt_tokens: number
  completion_tokens: number
}

/** What a gpt-4o-mini answer costs: $0.0002 an input token, $0.001 an output token. */
const priceOf = (usage: Usage) => usage.prompt_tokens * 0.0002 + usage.completion_tokens * 0.001

interface ChatChunk {
  object: string
  choices: { delta: { role?: string; content?: string }; finish_reason: string | null }[]
}

interface Embeddings<T> {
  data: { embedding: T }[]
}

/** The `data:` payloads of an SSE text, with their `event:` names. */
function parseEvents(text: string) {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? ''
      return { event, data: data === '[DONE]' ? data : (JSON.parse(data) as Record<string, any>) }
    })
}

describe('streaming', () => {
  test('a streamed chat answer arrives token by token over time, with no Content-Type, ending in [DONE]', async () => {
    const started = performance.now()
    const response = await call('/chat/completions', chat({ stream: true }))

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBeNull()
    const chunks = await readChunks(response)
    const events = parseEvents(chunks.map((chunk) => chunk.text).join(''))

    expect(chunks.length).toBeGreaterThan(10)
    expect(chunks.at(-1)!.at - chunks[0]!.at).toBeGreaterThanOrEqual(STREAM_DELAY_MS * 8)
    expect(performance.now() - started).toBeLessThan(5000)
    expect(events.at(-1)!.data).toBe('[DONE]')
    const deltas = events.slice(0, -1).map(({ data }) => data as ChatChunk)
    expect(deltas.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true)
    expect(deltas[0]!.choices[0]!.delta.role).toBe('assistant')
    expect(deltas.at(-1)!.choices[0]!.finish_reason).toBe('stop')
    const text = deltas.map((chunk) => chunk.choices[0]!.delta.content ?? '').join('')
    expect(text).toContain('Tell me about Echo')
  })

  test('stream_options.include_usage adds the usage chunk before [DONE]', async () => {
    const events = parseEvents(
      await (await call('/chat/completions', chat({ stream: true, stream_options: { include_usage: true } }))).text(),
    )

    expect(events.at(-2)!.data).toMatchObject({
      choices: [],
      usage: { prompt_tokens: anyNumber, completion_tokens: anyNumber },
    })
  })

  test('the legacy /completions stream adds the usage chunk before [DONE] when stream_options.include_usage asks', async () => {
    const completion = (extra: Record<string, unknown> = {}) => ({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Tell me about Echo',
      stream: true,
      ...extra,
    })
    const events = parseEvents(
      await (await call('/completions', completion({ stream_options: { include_usage: true } }))).text(),
    )
    const plain = parseEvents(await (await call('/completions', completion())).text())

    expect(events.at(-1)!.data).toBe('[DONE]')
    const textChunks = events.slice(0, -2)
    const usage = events.at(-2)!.data as { usage: Usage & { total_tokens: number } }
    expect(usage).toMatchObject({
      object: 'text_completion',
      choices: [],
      usage: { prompt_tokens: anyNumber, completion_tokens: textChunks.length - 1 },
    })
    expect(usage.usage.total_tokens).toBe(usage.usage.prompt_tokens + usage.usage.completion_tokens)
    expect(
      textChunks.every(
        ({ data }) =>
          typeof data === 'object' && data.usage === null && (data as { choices: unknown[] }).choices.length === 1,
      ),
    ).toBe(true)
    expect(plain.some(({ data }) => typeof data === 'object' && 'usage' in data)).toBe(false)
  })

  test('Anthropic messages stream Anthropic’s named events', async () => {
    const response = await call(
      '/messages',
      {
        model: 'claude-3-5-haiku-20241022',
        max_tokens: 1024,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      },
      { 'x-api-key': token, 'anthropic-version': '2023-06-01' },
    )
    const events = parseEvents(await response.text())

    expect(response.headers.get('content-type')).toBeNull()
    const names = events.map((event) => event.event)
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping'])
    expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop'])
    expect(names.filter((name) => name === 'content_block_delta').length).toBeGreaterThan(10)
    expect(events.every(({ event, data }) => typeof data === 'object' && data.type === event)).toBe(true)
  })

  test('Google :streamGenerateContent streams GenerateContentResponse objects, the last with finishReason', async () => {
    const response = await call('/models/gemini-2.0-flash:streamGenerateContent?alt=sse', {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    })
    const events = parseEvents(await response.text())

    expect(response.headers.get('content-type')).toBeNull()
    expect(events.length).toBeGreaterThan(10)
    expect(events[0]!.data).toMatchObject({
      candidates: [{ content: { parts: [{ text: anyString }], role: 'model' } }],
    })
    expect(events.at(-1)!.data).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { candidatesTokenCount: events.length - 1 },
    })
  })

  test('Responses API streams typed events from response.created to response.completed', async () => {
    const events = parseEvents(
      await (await call('/responses', { model: 'gpt-4o-mini', input: 'Hi', stream: true })).text(),
    )

    const types = events.map((event) => (event.data as Record<string, unknown>).type)
    expect(types[0]).toBe('response.created')
    expect(types.at(-1)).toBe('response.completed')
    expect(types).toContain('response.output_text.delta')
    expect(events.map((event) => (event.data as Record<string, unknown>).sequence_number)).toEqual(
      events.map((_, index) => index),
    )
  })

  test('a stream the client stops is billed only for the tokens it received', async () => {
    const whole = (await (await call('/chat/completions', chat())).json()) as {
      usage: { prompt_tokens: number; completion_tokens: number }
    }
    const wholePrice = whole.usage.prompt_tokens * 0.0002 + whole.usage.completion_tokens * 0.001
    const before = await getBalance(dev, token)

    // A raw socket: msw's passthrough fetch reads a cancelled body to its end, as no browser does.
    await readThenHangUp(new URL(dev.routerUrl), '/chat/completions', JSON.stringify(chat({ stream: true })), token)

    // Bounded wait for the server to see the closed socket and give back the unsent tokens.
    let spent = wholePrice
    for (let attempt = 0; attempt < 40 && spent >= wholePrice - 1e-9; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, STREAM_DELAY_MS))
      spent = before - (await getBalance(dev, token))
    }
    expect(spent).toBeGreaterThan(0)
    expect(spent).toBeLessThan(wholePrice)
  })
})

describe('billing', () => {
  test('a chat answer costs at least $0.01 and lowers the balance by its price', async () => {
    const before = await getBalance(dev, token)

    const response = await call('/chat/completions', chat())
    const answer = (await response.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }

    const spent = before - (await getBalance(dev, token))
    expect(spent).toBeGreaterThanOrEqual(0.01)
    expect(spent).toBeCloseTo(answer.usage.prompt_tokens * 0.0002 + answer.usage.completion_tokens * 0.001, 6)
  })

  test('$0.0001 or less left gets 402, Express’s error page as from Echo’s router; nothing is charged', async () => {
    await setBalance(dev, 0.0001)

    const response = await call('/chat/completions', chat())

    expect(response.status).toBe(402)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await response.text()).toBe(expressErrorPage('Payment Required'))
    expect(await getBalance(dev, token)).toBe(0.0001)
    await setBalance(dev, 0, 0.0001)
    expect((await call('/chat/completions', chat())).status).toBe(402)
    expect((await getFreeTier(dev, token)).userSpendInfo.amountLeft).toBe(0.0001)
  })

  test('just over $0.0001 left, free tier and balance together, is served and billed in full past zero', async () => {
    await setBalance(dev, 0.00006, 0.00005)

    const response = await call('/chat/completions', chat())
    const price = priceOf(((await response.json()) as { usage: Usage }).usage)

    expect(response.status).toBe(200)
    expect((await getFreeTier(dev, token)).userSpendInfo.amountLeft).toBe(0)
    expect(await getBalance(dev, token)).toBeCloseTo(0.00011 - price, 6)
    expect((await call('/chat/completions', chat())).status).toBe(402)
  })

  test('the balance runs out after enough calls', async () => {
    await setBalance(dev, 0.06) // a little over two answers of about $0.026

    const statuses: number[] = []
    for (let i = 0; i < 5; i += 1) statuses.push((await call('/chat/completions', chat())).status)

    expect(statuses.slice(0, 2)).toEqual([200, 200])
    expect(statuses.at(-1)).toBe(402)
  })
})

describe('the free tier, drawn first as Echo’s router does', () => {
  test('a call for the demo app draws its free tier, and the paid balance stays', async () => {
    await setBalance(dev, 10, 1)

    const price = priceOf(((await (await call('/chat/completions', chat())).json()) as { usage: Usage }).usage)

    expect(await getBalance(dev, token)).toBe(10)
    const { spendPoolBalance, userSpendInfo } = await getFreeTier(dev, token)
    expect(price).toBeGreaterThan(0.01)
    expect(userSpendInfo.amountSpent).toBeCloseTo(price, 6)
    expect(userSpendInfo.amountLeft).toBeCloseTo(1 - price, 6)
    expect(userSpendInfo.spendLimit).toBe(1)
    expect(spendPoolBalance).toBeCloseTo(5 - price, 6)
  })

  test('what the free tier cannot cover is billed to the paid balance', async () => {
    await setBalance(dev, 10, 0.01)

    const price = priceOf(((await (await call('/chat/completions', chat())).json()) as { usage: Usage }).usage)

    expect((await getFreeTier(dev, token)).userSpendInfo).toMatchObject({ amountSpent: 1, amountLeft: 0 })
    expect(await getBalance(dev, token)).toBeCloseTo(10 - (price - 0.01), 6)
  })

  test('402 only once both are spent: at most $0.0001 is left, and no more than the last call below zero', async () => {
    await setBalance(dev, 0.02, 0.03)

    const statuses: number[] = []
    const prices: number[] = []
    for (let i = 0; i < 6 && statuses.at(-1) !== 402; i += 1) {
      const response = await call('/chat/completions', chat())
      statuses.push(response.status)
      if (response.ok) prices.push(priceOf(((await response.json()) as { usage: Usage }).usage))
    }

    const balance = await getBalance(dev, token)
    const { userSpendInfo } = await getFreeTier(dev, token)
    expect(statuses.at(-1)).toBe(402)
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true)
    expect(userSpendInfo.amountLeft).toBe(0)
    expect(userSpendInfo.amountLeft + balance).toBeLessThanOrEqual(0.0001)
    expect(balance).toBeGreaterThanOrEqual(-prices.at(-1)!)
    // Every call was billed in full: free tier and balance together went down by the sum of the prices.
    expect(0.05 - (userSpendInfo.amountLeft + balance)).toBeCloseTo(
      prices.reduce((sum, price) => sum + price, 0),
      6,
    )
  })

  test('a stream the client stops gives the unsent tokens back to the free tier it drew', async () => {
    await setBalance(dev, 10, 1)
    const price = priceOf(((await (await call('/chat/completions', chat())).json()) as { usage: Usage }).usage)
    const before = (await getFreeTier(dev, token)).userSpendInfo.amountSpent

    await readThenHangUp(new URL(dev.routerUrl), '/chat/completions', JSON.stringify(chat({ stream: true })), token)

    // Bounded wait for the server to see the closed socket and give back the unsent tokens.
    let drawn = price
    for (let attempt = 0; attempt < 40 && drawn >= price - 1e-9; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, STREAM_DELAY_MS))
      drawn = (await getFreeTier(dev, token)).userSpendInfo.amountSpent - before
    }
    expect(drawn).toBeGreaterThan(0)
    expect(drawn).toBeLessThan(price)
    expect(await getBalance(dev, token)).toBe(10)
  })
})

describe('errors', () => {
  test('no token is 402 with an x402 payment challenge in JSON, as Echo’s router', async () => {
    const response = await call('/chat/completions', chat(), {})

    expect(response.status).toBe(402)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('www-authenticate')).toMatch(/^X-402\b/)
    expect(await response.json()).toEqual({
      x402Version: 1,
      error: 'X-PAYMENT header is required',
      accepts: [
        {
          scheme: 'exact',
          network: 'base',
          maxAmountRequired: stringMatching(/^\d+$/),
          resource: `${dev.routerUrl}/chat/completions`,
          description: anyString,
          mimeType: 'application/json',
          payTo: '0x0000000000000000000000000000000000000000',
          maxTimeoutSeconds: 60,
          asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        },
      ],
    })
    expect(await getBalance(dev, token)).toBe(10)
  })

  test('an invalid token is 401 with Express’s error page, as Echo’s router', async () => {
    const response = await call('/chat/completions', chat(), bearer('not-a-token'))

    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await response.text()).toBe(expressErrorPage('Unauthorized'))
    expect(response.headers.get('www-authenticate')).toBeNull()
  })

  test('an unknown model is 422 {error} in Echo’s words', async () => {
    const openai = await call('/chat/completions', chat({ model: 'gpt-99' }))
    const google = await call('/models/gemini-0:generateContent', { contents: [] })

    expect(openai.status).toBe(422)
    expect(await openai.text()).toBe('{"error":"Invalid model: gpt-99 Echo does not yet support this model."}')
    expect(google.status).toBe(422)
    expect(await google.json()).toEqual({ error: 'Invalid model: gemini-0 Echo does not yet support this model.' })
  })

  test('CORS: a preflight to the router names Authorization and echoes the official SDKs’ headers', async () => {
    const response = await fetch(`${dev.routerUrl}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, x-stainless-lang, x-stainless-retry-count',
      },
    })

    const allowed = response.headers.get('access-control-allow-headers')!.split(', ')
    expect(response.status).toBe(204)
    expect(allowed).toEqual(
      expect.arrayContaining([
        'Authorization',
        'anthropic-version',
        'x-api-key',
        'X-Retry',
        'x-stainless-lang',
        'x-stainless-retry-count',
      ]),
    )
  })
})

describe('every endpoint answers in its provider’s shape', () => {
  test('chat completions, whole', async () => {
    expect(await (await call('/chat/completions', chat())).json()).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: stringContaining('Tell me about Echo') },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: anyNumber, completion_tokens: anyNumber, total_tokens: anyNumber },
    })
  })

  test('max_tokens cuts the answer short with finish_reason length', async () => {
    const answer = (await (await call('/chat/completions', chat({ max_tokens: 3 }))).json()) as {
      choices: { finish_reason: string }[]
      usage: { completion_tokens: number }
    }

    expect(answer.choices[0]!.finish_reason).toBe('length')
    expect(answer.usage.completion_tokens).toBe(3)
  })

  test('responses and completions', async () => {
    expect(await (await call('/responses', { model: 'gpt-4o-mini', input: 'Hi' })).json()).toMatchObject({
      object: 'response',
      status: 'completed',
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: anyString }] }],
      usage: { input_tokens: anyNumber, output_tokens: anyNumber },
    })
    expect(await (await call('/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'Hi' })).json()).toMatchObject({
      object: 'text_completion',
      choices: [{ text: anyString, finish_reason: 'stop' }],
    })
  })

  test('embeddings as floats and as base64', async () => {
    const floats = (await (
      await call('/embeddings', {
        model: 'text-embedding-3-small',
        input: ['a', 'b'],
        encoding_format: 'float',
        dimensions: 8,
      })
    ).json()) as Embeddings<number[]>
    const base64 = (await (
      await call('/embeddings', {
        model: 'text-embedding-3-small',
        input: 'a',
        encoding_format: 'base64',
        dimensions: 8,
      })
    ).json()) as Embeddings<string>

    expect(floats).toMatchObject({ object: 'list', model: 'text-embedding-3-small', usage: { prompt_tokens: 2 } })
    expect(floats.data).toHaveLength(2)
    expect(floats.data[0]!.embedding).toHaveLength(8)
    const bytes = Buffer.from(base64.data[0]!.embedding, 'base64')
    const decoded = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
    expect([...decoded]).toEqual(floats.data[0]!.embedding)
  })

  test('images as base64 PNGs', async () => {
    const answer = (await (
      await call('/images/generations', { model: 'gpt-image-1', prompt: 'a cat', n: 2, size: '1024x1024' })
    ).json()) as { data: { b64_json: string }[] }

    expect(answer.data).toHaveLength(2)
    expect(Buffer.from(answer.data[0]!.b64_json, 'base64').subarray(1, 4).toString()).toBe('PNG')
  })

  test('a multipart transcription', async () => {
    const form = new FormData()
    form.append('model', 'whisper-1')
    form.append('file', new Blob([new Uint8Array(100)], { type: 'audio/wav' }), 'hello.wav')

    const response = await fetch(`${dev.routerUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: bearer(token),
      body: form,
    })

    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ text: stringContaining('hello.wav') })
  })

  test('speech as a WAV file', async () => {
    const response = await call('/audio/speech', { model: 'tts-1', input: 'Hello', voice: 'alloy' })
    const bytes = Buffer.from(await response.arrayBuffer())

    expect(response.headers.get('content-type')).toBe('audio/wav')
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF')
    expect(bytes.subarray(8, 12).toString()).toBe('WAVE')
  })

  test('Anthropic messages, whole', async () => {
    expect(
      await (
        await call('/messages', {
          model: 'claude-3-5-haiku-20241022',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'Hi' }],
        })
      ).json(),
    ).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: anyString }],
      stop_reason: 'end_turn',
      usage: { input_tokens: anyNumber, output_tokens: anyNumber },
    })
  })

  test('Google generateContent, predict and batchEmbedContents', async () => {
    expect(
      await (
        await call('/models/gemini-2.0-flash:generateContent', { contents: [{ parts: [{ text: 'Hi' }] }] })
      ).json(),
    ).toMatchObject({
      candidates: [{ content: { parts: [{ text: anyString }], role: 'model' }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: anyNumber },
    })
    expect(
      await (
        await call('/models/imagen-3.0-generate-002:predict', {
          instances: [{ prompt: 'a cat' }],
          parameters: { sampleCount: 2 },
        })
      ).json(),
    ).toMatchObject({
      predictions: [{ bytesBase64Encoded: anyString, mimeType: 'image/png' }, { mimeType: 'image/png' }],
    })
    const embedded = (await (
      await call('/models/text-embedding-004:batchEmbedContents', {
        requests: [{ content: { parts: [{ text: 'a' }] } }, { content: { parts: [{ text: 'b' }] } }],
      })
    ).json()) as {
      embeddings: { values: number[] }[]
    }
    expect(embedded.embeddings).toHaveLength(2)
    expect(embedded.embeddings[0]!.values).toHaveLength(768)
  })

  test('Google :embedContent (the AI SDK’s embed()) answers one vector, billed as :batchEmbedContents', async () => {
    const content = { parts: [{ text: 'sunny day at the beach' }] }
    const before = await getBalance(dev, token)
    const single = await call('/models/gemini-embedding-001:embedContent', {
      model: 'models/gemini-embedding-001',
      content,
      taskType: 'RETRIEVAL_QUERY',
      outputDimensionality: 16,
    })
    const afterSingle = await getBalance(dev, token)
    const batch = await call('/models/gemini-embedding-001:batchEmbedContents', {
      requests: [
        { model: 'models/gemini-embedding-001', content: { role: 'user', ...content }, outputDimensionality: 16 },
      ],
    })
    const afterBatch = await getBalance(dev, token)

    expect(single.status).toBe(200)
    const { embedding } = (await single.json()) as { embedding: { values: number[] } }
    const { embeddings } = (await batch.json()) as { embeddings: { values: number[] }[] }
    expect(embedding.values).toHaveLength(16)
    expect(embedding.values).toEqual(embeddings[0]!.values)
    expect(before - afterSingle).toBeGreaterThan(0)
    expect(before - afterSingle).toBeCloseTo(afterSingle - afterBatch, 9)
    const plain = (await (await call('/models/text-embedding-004:embedContent', { content })).json()) as {
      embedding: { values: number[] }
    }
    expect(plain.embedding.values).toHaveLength(768)
  })

  test(':embedContent without content is a 400 in Google’s error shape, and nothing is charged', async () => {
    const response = await call('/models/text-embedding-004:embedContent', { taskType: 'RETRIEVAL_QUERY' })

    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: { code: 400, message: anyString, status: 'INVALID_ARGUMENT' } })
    expect(await getBalance(dev, token)).toBe(10)
  })

  test.each(['/v1beta', '/v1'])(
    'Google paths under %s (as @google/genai sends them) reach the same routes',
    async (prefix) => {
      const generated = await call(`${prefix}/models/gemini-2.0-flash:generateContent`, {
        contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      })
      const embedded = await call(`${prefix}/models/gemini-embedding-001:embedContent`, {
        content: { parts: [{ text: 'Hi' }] },
      })
      const streamed = parseEvents(
        await (
          await call(`${prefix}/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, {
            contents: [{ parts: [{ text: 'Hi' }] }],
          })
        ).text(),
      )

      expect(generated.status).toBe(200)
      expect(await generated.json()).toMatchObject({
        candidates: [
          {
            content: { parts: [{ text: stringContaining('Hello from the Echo dev server') }], role: 'model' },
            finishReason: 'STOP',
          },
        ],
      })
      expect(embedded.status).toBe(200)
      expect(await embedded.json()).toEqual({ embedding: { values: expect.any(Array) as unknown } })
      expect(streamed.at(-1)!.data).toMatchObject({ candidates: [{ finishReason: 'STOP' }] })
    },
  )

  test('supported-models lists exactly the models the router accepts', async () => {
    const { models } = (await (
      await fetch(`${dev.apiUrl}/api/v1/supported-models`, { headers: bearer(token) })
    ).json()) as { models: { model_id: string }[] }
    const endpointFor: Record<string, [string, Record<string, unknown>]> = {
      text: ['/chat/completions', { messages: [{ role: 'user', content: 'x' }], max_tokens: 1 }],
      embedding: ['/embeddings', { input: 'x', dimensions: 2 }],
      image: ['/images/generations', { prompt: 'x' }],
      speech: ['/audio/speech', { input: 'x' }],
    }

    const accepted = []
    for (const { model_id } of models) {
      for (const [path, body] of Object.values(endpointFor)) {
        if ((await call(path, { ...body, model: model_id })).status === 200) {
          accepted.push(model_id)
          break
        }
      }
      if (model_id === 'whisper-1') accepted.push(model_id) // multipart, proved above
    }

    expect(accepted).toEqual(models.map((model) => model.model_id))
    expect((await call('/chat/completions', chat({ model: 'gpt-5-imaginary' }))).status).toBe(422)
  })
})

describe('the official SDKs, pointed at the router', () => {
  test('openai streams a chat answer; @anthropic-ai/sdk (which adds /v1) streams a message', async () => {
    const openai = new OpenAI({ apiKey: token, baseURL: dev.routerUrl })
    const anthropic = new Anthropic({ apiKey: token, baseURL: dev.routerUrl })

    let text = ''
    for await (const chunk of await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    })) {
      text += chunk.choices[0]?.delta.content ?? ''
    }
    const message = await anthropic.messages
      .stream({ model: 'claude-3-5-haiku-20241022', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage()

    expect(text).toContain('Hello from the Echo dev server')
    expect(message.content[0]).toMatchObject({ type: 'text', text: stringContaining('Hello from the Echo dev server') })
    expect(message.stop_reason).toBe('end_turn')
  })

  test('openai’s legacy completions stream reports usage when asked', async () => {
    const openai = new OpenAI({ apiKey: token, baseURL: dev.routerUrl })

    const chunks = []
    for await (const chunk of await openai.completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Hi',
      stream: true,
      stream_options: { include_usage: true },
    }))
      chunks.push(chunk)

    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: anyNumber, completion_tokens: chunks.length - 2, total_tokens: anyNumber },
    })
  })
})
