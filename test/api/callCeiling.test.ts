// The per-call price ceiling: a call that could cost more than the user allows is refused before it leaves, or
// sent with its output limit lowered so that it cannot; with no ceiling, nothing about a request changes.
import { describe, expect, it } from 'vitest'

import { createEchoFetch, createEchoRouter, EchoError, resolveConfig, userMessageOf } from 'echo-rtk/client'
import { withCallCeiling } from '../../src/api/callCeiling'
import { echoPrices } from '../../src/api/callPrices'

const ROUTER = 'https://echo.router.merit.systems'
const APP_ID = '60601628-cdb7-481e-8f7e-921981220348'
// Echo's prices per token, as Echo's own TypeScript SDK (1.0.23) lists them and Echo's router bills by.
const ECHO_PRICES = {
  'gpt-4o-mini': { input: 1.5e-7, output: 6e-7 },
  'gpt-4o': { input: 0.0000025, output: 0.00001 },
  'claude-3-5-haiku-20241022': { input: 8e-7, output: 0.000004 },
  'gemini-2.5-flash': { input: 3e-7, output: 0.0000025 },
} as const
type Priced = keyof typeof ECHO_PRICES

const urlOfInput = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString())

/** A fetch that records what would have left, and answers 200. */
function recordingFetch() {
  const sent: { url: string; init: RequestInit | undefined; body: Record<string, unknown> | null }[] = []
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const text = typeof init?.body === 'string' ? init.body : null
    sent.push({
      url: urlOfInput(input),
      init,
      body: text === null ? null : (JSON.parse(text) as Record<string, unknown>),
    })
    return Promise.resolve(new Response('{}', { status: 200 }))
  }
  return { fetch, sent }
}

function ceilingFetch(appCeiling: number | null) {
  const recorded = recordingFetch()
  return { ...recorded, send: withCallCeiling(recorded.fetch, { appCeiling: () => appCeiling, prices: echoPrices }) }
}

/** The most a call can cost by the test's own table: every byte of its body an input token, its limit of output. */
const worstCase = (model: Priced, bodyText: string, outputTokens: number, choices = 1) =>
  new TextEncoder().encode(bodyText).length * ECHO_PRICES[model].input +
  outputTokens * choices * ECHO_PRICES[model].output

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
})
const chat = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user' as const, content: 'Write a haiku about the sea.' }],
  ...extra,
})

describe('a call with no ceiling', () => {
  it('leaves the request exactly as it was: the same input and init, unknown models too', async () => {
    const { send, sent } = ceilingFetch(null)
    const init = post({ model: 'no-such-model', messages: [] })
    await send(`${ROUTER}/v1/chat/completions`, init)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.init).toBe(init)
  })
})

describe('a call under a ceiling', () => {
  it('is refused before anything is sent when its input alone could cost more, with both figures for people', async () => {
    const { send, sent } = ceilingFetch(0.01)
    const prompt = 'tell me everything '.repeat(5_000)
    const failure = await send(
      `${ROUTER}/v1/chat/completions`,
      post(chat({ messages: [{ role: 'user', content: prompt }] })),
    )
      .then(() => null)
      .catch((error: unknown) => error)
    expect(sent).toEqual([])
    expect(failure).toBeInstanceOf(EchoError)
    expect((failure as EchoError).reason).toBe('call-cost-limit')
    expect(userMessageOf(failure)).toMatch(
      /^This answer could cost up to \$0\.01\d*; this app allows \$0\.01 per answer\.$/,
    )
  })

  it.each([
    ['max_tokens', { max_tokens: 100_000 }],
    ['max_completion_tokens', { max_completion_tokens: 100_000 }],
    ['both fields', { max_tokens: 100_000, max_completion_tokens: 90_000 }],
  ])(
    'lowers %s to the most that fits: the worst case at or under the ceiling, one more token over it',
    async (_, limits) => {
      const { send, sent } = ceilingFetch(0.01)
      const sentBody = JSON.stringify(chat(limits))
      await send(`${ROUTER}/v1/chat/completions`, post(chat(limits)))
      const body = sent[0]!.body!
      const limit = Math.max(
        ...['max_tokens', 'max_completion_tokens'].flatMap((key) => (key in body ? [body[key] as number] : [])),
      )
      expect(limit).toBeGreaterThan(0)
      expect(worstCase('gpt-4o-mini', JSON.stringify(body), limit)).toBeLessThanOrEqual(0.01)
      expect(worstCase('gpt-4o-mini', sentBody, limit + 1)).toBeGreaterThan(0.01)
      for (const key of Object.keys(limits)) expect(body[key]).toBeLessThanOrEqual(limit)
    },
  )

  it('leaves a call that fits as it was', async () => {
    const { send, sent } = ceilingFetch(0.01)
    const init = post(chat({ max_tokens: 50 }))
    await send(`${ROUTER}/v1/chat/completions`, init)
    expect(sent[0]!.init!.body).toBe(init.body)
  })

  it("adds the endpoint's own limit where the call sends none, each vendor's field", async () => {
    const { send, sent } = ceilingFetch(0.02)
    await send(`${ROUTER}/v1/chat/completions`, post(chat()))
    await send(`${ROUTER}/v1/responses`, post({ model: 'gpt-4o', input: 'Hello' }))
    await send(`${ROUTER}/v1/messages`, post({ model: 'claude-3-5-haiku-20241022', messages: [] }))
    await send(`${ROUTER}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, post({ contents: [] }))
    const [chatBody, responsesBody, messagesBody, googleBody] = sent.map((call) => call.body!)
    expect(
      worstCase('gpt-4o-mini', JSON.stringify(chatBody), chatBody!.max_completion_tokens as number),
    ).toBeLessThanOrEqual(0.02)
    expect(
      worstCase('gpt-4o', JSON.stringify(responsesBody), responsesBody!.max_output_tokens as number),
    ).toBeLessThanOrEqual(0.02)
    const anthropic = messagesBody!.max_tokens as number
    expect(worstCase('claude-3-5-haiku-20241022', JSON.stringify(messagesBody), anthropic)).toBeLessThanOrEqual(0.02)
    const google = (googleBody!.generationConfig as { maxOutputTokens: number }).maxOutputTokens
    expect(worstCase('gemini-2.5-flash', JSON.stringify(googleBody), google)).toBeLessThanOrEqual(0.02)
  })

  it('counts every choice a call asks for (n) as its own answer', async () => {
    const { send, sent } = ceilingFetch(0.01)
    await send(`${ROUTER}/v1/chat/completions`, post(chat({ n: 4, max_tokens: 100_000 })))
    const body = sent[0]!.body!
    expect(worstCase('gpt-4o-mini', JSON.stringify(body), body.max_tokens as number, 4)).toBeLessThanOrEqual(0.01)
    expect(body.max_tokens as number).toBeLessThan(0.01 / ECHO_PRICES['gpt-4o-mini'].output / 4)
  })

  it('refuses a model Echo states no price for, naming it, and sends nothing', async () => {
    const { send, sent } = ceilingFetch(0.05)
    const failure = await send(`${ROUTER}/v1/chat/completions`, post(chat({ model: 'gpt-4o-mni' }))).catch(
      (error: unknown) => error,
    )
    expect(sent).toEqual([])
    expect((failure as EchoError).reason).toBe('call-cost-limit')
    expect(userMessageOf(failure)).toBe('Echo states no price for gpt-4o-mni, so this answer cannot be held to $0.05.')
  })
})

describe('the X-Echo-Max-Cost header', () => {
  it('is a ceiling for its call alone, lower than the app’s, and never leaves the page', async () => {
    const { send, sent } = ceilingFetch(1)
    await send(`${ROUTER}/v1/chat/completions`, post(chat({ max_tokens: 100_000 }), { 'X-Echo-Max-Cost': '0.005' }))
    const { init, body } = sent[0]!
    expect(new Headers(init!.headers).has('x-echo-max-cost')).toBe(false)
    expect(new Headers(init!.headers).get('content-type')).toBe('application/json')
    expect(worstCase('gpt-4o-mini', JSON.stringify(body), body!.max_tokens as number)).toBeLessThanOrEqual(0.005)
  })

  it('does not raise the app’s ceiling: the lowest applies', async () => {
    const { send, sent } = ceilingFetch(0.001)
    await send(`${ROUTER}/v1/chat/completions`, post(chat({ max_tokens: 100_000 }), { 'X-Echo-Max-Cost': '5' }))
    const { body } = sent[0]!
    expect(worstCase('gpt-4o-mini', JSON.stringify(body), body!.max_tokens as number)).toBeLessThanOrEqual(0.001)
  })

  it('is a ceiling with no app ceiling too, and is removed', async () => {
    const { send, sent } = ceilingFetch(null)
    await send(`${ROUTER}/v1/chat/completions`, post(chat({ max_tokens: 100_000 }), { 'x-echo-max-cost': '0.002' }))
    expect(new Headers(sent[0]!.init!.headers).has('x-echo-max-cost')).toBe(false)
    expect(sent[0]!.body!.max_tokens as number).toBeLessThan(100_000)
  })

  it.each(['0', '-1', 'NaN', 'abc', '', 'Infinity'])(
    '"%s" is refused naming the header and what to pass; nothing is sent',
    async (value) => {
      const { send, sent } = ceilingFetch(null)
      const failure = await send(`${ROUTER}/v1/chat/completions`, post(chat(), { 'X-Echo-Max-Cost': value })).catch(
        (error: unknown) => error,
      )
      expect(sent).toEqual([])
      expect((failure as EchoError).reason).toBe('bad-argument')
      expect((failure as EchoError).message).toMatch(
        /^The X-Echo-Max-Cost header must be an amount in US dollars above 0/,
      )
    },
  )
})

describe('EchoConfig.maxCallCost', () => {
  it.each([0, -1, Number.NaN, 'abc', Number.POSITIVE_INFINITY])(
    '%s is refused with the field and what to pass',
    (value) => {
      expect(() =>
        resolveConfig({ appId: APP_ID, maxCallCost: value as number }, { origin: 'https://app.example' }),
      ).toThrow(
        /^EchoConfig\.maxCallCost must be an amount in US dollars above 0 \(such as 0\.05\), or null for none; got /,
      )
    },
  )

  it('is none when null or absent', () => {
    expect(
      resolveConfig({ appId: APP_ID, maxCallCost: null }, { origin: 'https://app.example' }).maxCallCost,
    ).toBeNull()
    expect(resolveConfig({ appId: APP_ID }, { origin: 'https://app.example' }).maxCallCost).toBeNull()
    expect(resolveConfig({ appId: APP_ID, maxCallCost: 0.05 }, { origin: 'https://app.example' }).maxCallCost).toBe(
      0.05,
    )
  })
})

describe("echo-rtk/client's clients under a ceiling", () => {
  const tokenProvider = { getAccessToken: () => Promise.resolve('token'), refreshToken: () => Promise.resolve('token') }
  const answered = () =>
    Response.json({ id: 'x', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' } }] })

  it("createEchoRouter's maxCallCost, and a call's own { maxCost } below it: the lowest bounds the answer", async () => {
    const bodies: string[] = []
    const fetch = (_: RequestInfo | URL, init?: RequestInit) => (
      bodies.push(init!.body as string),
      Promise.resolve(answered())
    )
    const router = createEchoRouter({ tokenProvider, fetch, maxCallCost: 0.01 })
    await router.chat.completions.create(chat({ max_tokens: 100_000 }))
    await router.chat.completions.create(chat({ max_tokens: 100_000 }), { maxCost: 0.002 })
    const [own, lowered] = bodies.map(
      (body) => [body, (JSON.parse(body) as { max_tokens: number }).max_tokens] as const,
    )
    expect(worstCase('gpt-4o-mini', own![0], own![1])).toBeLessThanOrEqual(0.01)
    expect(worstCase('gpt-4o-mini', lowered![0], lowered![1])).toBeLessThanOrEqual(0.002)
    expect(lowered![1]).toBeLessThan(own![1])
  })

  it("createEchoFetch's maxCallCost lowers what an official client sends; with none the body is the client's", async () => {
    const bodies: string[] = []
    const fetch = (_: RequestInfo | URL, init?: RequestInit) => (
      bodies.push(init!.body as string),
      Promise.resolve(answered())
    )
    const init = post(chat({ max_tokens: 100_000 }))
    await createEchoFetch({ tokenProvider, fetch, maxCallCost: 0.01 })(`${ROUTER}/v1/chat/completions`, init)
    await createEchoFetch({ tokenProvider, fetch })(`${ROUTER}/v1/chat/completions`, init)
    expect((JSON.parse(bodies[0]!) as { max_tokens: number }).max_tokens).toBeLessThan(100_000)
    expect(bodies[1]).toBe(init.body)
  })

  it.each([0, -1, Number.NaN, 'abc'])(
    'a maxCallCost of %s is refused when the client is made, naming the option',
    (value) => {
      expect(() => createEchoRouter({ tokenProvider, maxCallCost: value as number })).toThrow(
        /^createEchoRouter's maxCallCost must be an amount in US dollars above 0/,
      )
      expect(() => createEchoFetch({ tokenProvider, maxCallCost: value as number })).toThrow(
        /^createEchoFetch's maxCallCost must be an amount in US dollars above 0/,
      )
    },
  )

  it('a router call whose maxCost is not an amount is refused, naming it, and sends nothing', async () => {
    const bodies: string[] = []
    const fetch = (_: RequestInfo | URL, init?: RequestInit) => (
      bodies.push(init!.body as string),
      Promise.resolve(answered())
    )
    const failure = await createEchoRouter({ tokenProvider, fetch })
      .chat.completions.create(chat(), { maxCost: -1 })
      .catch((error: unknown) => error)
    expect((failure as EchoError).reason).toBe('bad-argument')
    expect((failure as EchoError).message).toMatch(/^A router call's maxCost must be an amount in US dollars above 0/)
    expect(bodies).toEqual([])
  })
})
