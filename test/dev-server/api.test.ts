import { readdirSync, readFileSync } from 'node:fs'

import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'

import { startDevServer, type RunningDevServer } from '../../dev-server/startDevServer.mjs'
import {
  anyNumber,
  anyString,
  bearer,
  getBalance,
  getFreeTier,
  letLoopbackThrough,
  postDevBalance,
  signIn,
  stringMatching,
} from './devServerClient'

let dev: RunningDevServer
let token: string

beforeAll(async () => {
  // modelsRoute: the dev server's own /api/v1/supported-models (not Echo's), which the model-id tests read.
  const modelsRoute = true
  dev = await startDevServer({ port: 0, routerPort: 0, accessTtl: 300, autoLogin: true, streamDelayMs: 1, modelsRoute })
  letLoopbackThrough()
  token = (await signIn(dev)).access_token
})
afterAll(() => dev.close())
beforeEach(letLoopbackThrough)

const get = (path: string, headers: Record<string, string> = bearer(token)) =>
  fetch(`${dev.apiUrl}${path}`, { headers })
const post = (path: string, body: unknown, headers: Record<string, string> = bearer(token)) =>
  fetch(`${dev.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

const isoDate = stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

describe('the eight /api/v1 endpoints', () => {
  test('GET /api/v1/apps answers the live server’s paged shape with the demo app', async () => {
    const response = await get('/api/v1/apps')

    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      items: [
        {
          id: dev.appId,
          name: anyString,
          description: anyString,
          profilePictureUrl: null,
          bannerImageUrl: null,
          homepageUrl: anyString,
          isPublic: true,
          createdAt: isoDate,
          updatedAt: isoDate,
        },
      ],
      page: 0,
      page_size: 10,
      total_count: 1,
      has_next: false,
    })
  })

  test('GET /api/v1/apps/{id} answers the app, and 404 with a message for another id', async () => {
    const found = await get(`/api/v1/apps/${dev.appId}`)
    const missing = await get('/api/v1/apps/00000000-0000-4000-8000-000000000000')

    expect(await found.json()).toMatchObject({ id: dev.appId, isPublic: true })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ message: 'App not found' })
  })

  test('GET /api/v1/balance answers the starting balance in USD', async () => {
    const response = await get('/api/v1/balance')

    expect(await response.json()).toEqual({ totalPaid: 10, totalSpent: 0, balance: 10, currency: 'USD' })
  })

  test('POST /api/v1/balance/free answers the demo app’s free tier', async () => {
    const response = await post('/api/v1/balance/free', { echoAppId: dev.appId })

    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      spendPoolBalance: 5,
      userSpendInfo: {
        userId: dev.testUser.id,
        echoAppId: dev.appId,
        spendPoolId: anyString,
        amountSpent: 0,
        spendLimit: 1,
        amountLeft: 1,
      },
    })
  })

  test('GET /api/v1/balance/{appId}/free, the route Echo’s SDKs call today, answers the same free tier', async () => {
    const byId = await get(`/api/v1/balance/${dev.appId}/free`)
    const byBody = await post('/api/v1/balance/free', { echoAppId: dev.appId })

    expect(byId.status).toBe(200)
    expect(await byId.json()).toEqual(await byBody.json())
  })

  test('an app without a spend pool has a free tier of nothing, both ways, as Echo answers it (no 404)', async () => {
    const otherApp = '00000000-0000-4000-8000-000000000000'
    const byId = await get(`/api/v1/balance/${otherApp}/free`)
    const byBody = await post('/api/v1/balance/free', { echoAppId: otherApp })

    const userSpendInfo = { userId: dev.testUser.id, echoAppId: otherApp, spendPoolId: null, amountSpent: 0 }
    const nothing = { spendPoolBalance: 0, userSpendInfo: { ...userSpendInfo, spendLimit: null, amountLeft: 0 } }
    expect([byId.status, await byId.json()]).toEqual([200, nothing])
    expect([byBody.status, await byBody.json()]).toEqual([200, nothing])
  })

  test('POST /api/v1/balance/free without an app id is a 400 with errors', async () => {
    const response = await post('/api/v1/balance/free', {})

    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ message: anyString, errors: [{ path: ['echoAppId'], message: anyString }] })
  })

  test('GET /api/v1/supported-models lists models with prices, also by provider', async () => {
    const { models, models_by_provider } = (await (await get('/api/v1/supported-models')).json()) as {
      models: { model_id: string; provider: string; input_cost_per_token: number; output_cost_per_token: number }[]
      models_by_provider: Record<string, { model_id: string }[]>
    }

    expect(models.length).toBeGreaterThan(5)
    expect(models).toContainEqual({
      model_id: 'gpt-4o-mini',
      provider: 'openai',
      input_cost_per_token: 0.0002,
      output_cost_per_token: 0.001,
    })
    expect(Object.keys(models_by_provider).sort()).toEqual(['anthropic', 'gemini', 'openai'])
    expect(Object.values(models_by_provider).flat()).toHaveLength(models.length)
  })

  test('POST /api/v1/stripe/payment-link answers a link to the dev checkout', async () => {
    const response = await post('/api/v1/stripe/payment-link', {
      amount: 5,
      description: 'Credits',
      successUrl: 'http://localhost:5173/paid',
    })

    expect(response.status).toBe(200)
    const { paymentLink, payment } = (await response.json()) as {
      paymentLink: Record<string, unknown>
      payment: Record<string, unknown>
    }
    expect(paymentLink).toEqual({
      id: anyString,
      url: `${dev.apiUrl}/checkout/${String(paymentLink.id)}`,
      amount: 5,
      currency: 'usd',
      status: 'active',
      created: anyNumber,
    })
    expect(payment).toMatchObject({ amount: 5, status: 'pending', description: 'Credits' })
  })

  test.each([0, 0.5, -3, 'five', null])(
    'POST /api/v1/stripe/payment-link refuses amount %s with a 400 naming the field',
    async (amount) => {
      const response = await post('/api/v1/stripe/payment-link', { amount, successUrl: 'http://localhost:5173/' })

      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ message: anyString, errors: [{ path: ['amount'], message: anyString }] })
    },
  )

  test('GET /api/v1/user answers the test user', async () => {
    const response = await get('/api/v1/user')

    expect(await response.json()).toEqual({
      id: dev.testUser.id,
      email: 'test@example.com',
      name: 'Test User',
      image: null,
      picture: null,
      createdAt: isoDate,
      updatedAt: isoDate,
    })
  })

  test('POST /api/v1/user/referral takes the known code once; a rejected code is 400 with success false', async () => {
    const unknown = await post('/api/v1/user/referral', { echoAppId: dev.appId, code: 'NOPE' })
    const accepted = await post('/api/v1/user/referral', { echoAppId: dev.appId, code: 'WELCOME' })
    const again = await post('/api/v1/user/referral', { echoAppId: dev.appId, code: 'WELCOME' })

    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toEqual({ success: false, message: anyString })
    expect(accepted.status).toBe(200)
    expect(await accepted.json()).toEqual({ success: true, message: anyString })
    expect(again.status).toBe(400)
    expect(await again.json()).toMatchObject({ success: false })
  })

  test.each([
    ['GET', '/api/v1/apps'],
    ['GET', '/api/v1/apps/x'],
    ['GET', '/api/v1/balance'],
    ['POST', '/api/v1/balance/free'],
    ['GET', '/api/v1/balance/x/free'],
    ['GET', '/api/v1/supported-models'],
    ['POST', '/api/v1/stripe/payment-link'],
    ['GET', '/api/v1/user'],
    ['POST', '/api/v1/user/referral'],
  ])('%s %s without a token is 401 {"message":"Unauthorized"}', async (method, path) => {
    const response = await fetch(`${dev.apiUrl}${path}`, {
      method,
      ...(method === 'POST' ? { body: '{}', headers: { 'Content-Type': 'application/json' } } : {}),
    })

    expect(response.status).toBe(401)
    expect(await response.text()).toBe('{"message":"Unauthorized"}')
  })

  test('a made-up bearer token is 401 too', async () => {
    expect((await get('/api/v1/balance', bearer('eyJhbGciOiJSUzI1NiJ9.e30.c2ln'))).status).toBe(401)
  })
})

describe('GET /api/v1/supported-models, which Echo does not have (modelsRoute off, the default)', () => {
  let echoLike: RunningDevServer
  let echoLikeToken: string
  beforeAll(async () => {
    echoLike = await startDevServer({ port: 0, routerPort: 0, autoLogin: true })
    letLoopbackThrough()
    echoLikeToken = (await signIn(echoLike)).access_token
  })
  afterAll(() => echoLike.close())

  const origin = { Origin: 'http://localhost:5173' }
  const isCors = (name: string) => name.startsWith('access-control-')
  const corsHeaders = (response: Response) => [...response.headers.keys()].filter(isCors)

  test('is a 404 with no CORS headers, as any path Echo has no route for, so a page’s fetch rejects', async () => {
    const url = `${echoLike.apiUrl}/api/v1/supported-models`
    const got = await fetch(url, { headers: { ...bearer(echoLikeToken), ...origin } })
    const asking = { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' }
    const preflight = await fetch(url, { method: 'OPTIONS', headers: { ...origin, ...asking } })

    expect(got.status).toBe(404)
    expect(got.headers.get('content-type')).toMatch(/^text\/html/)
    expect(corsHeaders(got)).toEqual([])
    expect(preflight.status).toBe(404)
    expect(corsHeaders(preflight)).toEqual([])
  })

  test('the routes Echo has still answer with CORS headers', async () => {
    const got = await fetch(`${echoLike.apiUrl}/api/v1/balance`, { headers: { ...origin, ...bearer(echoLikeToken) } })

    expect(got.status).toBe(200)
    expect(got.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  })
})

describe('the /dev/balance control (not part of Echo)', () => {
  test('{ balance, freeTier } sets the paid balance and the demo app’s free tier left', async () => {
    const response = await postDevBalance(dev, { balance: 0.03, freeTier: 0 })

    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      balance: 0.03,
      currency: 'USD',
      freeTierBalance: { userSpendInfo: { amountLeft: 0, amountSpent: 1 } },
    })
    expect(await getBalance(dev, token)).toBe(0.03)
    expect((await getFreeTier(dev, token)).userSpendInfo).toMatchObject({
      amountSpent: 1,
      spendLimit: 1,
      amountLeft: 0,
    })
    expect((await getFreeTier(dev, token)).spendPoolBalance).toBe(4)
  })

  test('{ balance } alone keeps the free tier as it is; { freeTier } alone keeps the balance', async () => {
    await postDevBalance(dev, { balance: 10, freeTier: 0.25 })

    await postDevBalance(dev, { balance: 0.5 })
    expect((await getFreeTier(dev, token)).userSpendInfo.amountLeft).toBe(0.25)
    await postDevBalance(dev, { freeTier: 1 })
    expect(await getBalance(dev, token)).toBe(0.5)
    expect((await getFreeTier(dev, token)).userSpendInfo).toMatchObject({ amountSpent: 0, amountLeft: 1 })
    await postDevBalance(dev, { balance: 10 })
  })

  test.each([
    [{ freeTier: 1.5 }, 'freeTier'],
    [{ balance: 1, freeTier: -1 }, 'freeTier'],
    [{ balance: 'ten' }, 'balance'],
  ])('%j is a 400 naming the field, and changes nothing', async (body, field) => {
    const before = await getBalance(dev, token)

    const response = await postDevBalance(dev, body)

    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ message: anyString, errors: [{ path: [field], message: anyString }] })
    expect(await getBalance(dev, token)).toBe(before)
  })

  test('a body with neither field is a 400', async () => {
    expect((await postDevBalance(dev, {})).status).toBe(400)
  })
})

describe('model ids', () => {
  const MODEL_ID = /^(gpt|claude|gemini|imagen|text-embedding|whisper|dall-e|tts)[\w.-]*$/

  const supportedIds = async () => {
    const { models } = (await (await get('/api/v1/supported-models')).json()) as { models: { model_id: string }[] }
    return new Set(models.map((model) => model.model_id))
  }

  test('every model id the README and the docs pass to a model call is one /api/v1/supported-models lists', async () => {
    const docs = new URL('../../docs/', import.meta.url)
    const pages = [
      new URL('../../README.md', import.meta.url),
      ...readdirSync(docs)
        .filter((name) => name.endsWith('.md'))
        .map((name) => new URL(name, docs)),
    ]
    const text = pages.map((page) => readFileSync(page, 'utf8')).join('\n')
    // Code blocks, and code spans in the prose (`anthropic('claude-haiku-4-5')`).
    const code = [
      ...[...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((block) => block[1]),
      ...[...text.matchAll(/`([^`\n]+)`/g)].map((span) => span[1]),
    ].join('\n')
    // A quoted id given as `model:` or as the first argument of a router or AI SDK provider method.
    const modelArgument =
      /(?:\bmodel\s*:\s*|(?:\brouter\.google\.\w+|\bopenai|\banthropic|\bgoogle|\.(?:chat|responses|languageModel|textEmbeddingModel|textEmbedding|embedding|embeddingModel|image|imageModel|speech|transcription))\(\s*)(['"`])([^'"`\n]+)\1/g
    const ids = new Set(
      [...code.matchAll(modelArgument)]
        .map((match) => match[2]!.replace(/^models\//, ''))
        .filter((id) => MODEL_ID.test(id)),
    )

    const listed = await supportedIds()

    expect(ids.size).toBeGreaterThanOrEqual(5)
    expect([...ids].filter((id) => !listed.has(id))).toEqual([])
  })

  test('Echo’s own chat catalogue is served, the templates’ gpt-5 among it, and the dev server’s README lists every model', async () => {
    const listed = await supportedIds()
    const readme = readFileSync(new URL('../../dev-server/README.md', import.meta.url), 'utf8')
    const inReadme = new Set(
      [...readme.slice(readme.indexOf('## Models')).matchAll(/`([\w.-]+)`/g)].map((match) => match[1]),
    )

    expect(
      ['gpt-5', 'gpt-5-mini', 'o3', 'claude-sonnet-4-5-20250929', 'gemini-2.5-pro'].filter((id) => !listed.has(id)),
    ).toEqual([])
    expect([...listed].filter((id) => !inReadme.has(id))).toEqual([])
  })

  test('the model ids of the README’s coming examples are listed too', async () => {
    const listed = await supportedIds()

    const coming = [
      'gpt-4.1-mini',
      'claude-haiku-4-5',
      'claude-sonnet-4-5',
      'claude-3-5-haiku-20241022',
      'gemini-2.5-flash',
      'gemini-embedding-001',
      'text-embedding-3-large',
      'dall-e-3',
    ]
    expect(coming.filter((id) => !listed.has(id))).toEqual([])
  })
})

describe('CORS', () => {
  test('a preflight to /api/v1 names Authorization and echoes the SDK headers asked for', async () => {
    const response = await fetch(`${dev.apiUrl}/api/v1/balance`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization, x-retry, x-stainless-os',
      },
    })

    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    const allowed = response.headers.get('access-control-allow-headers')!.split(', ')
    expect(allowed).toEqual(expect.arrayContaining(['Authorization', 'Content-Type', 'X-Retry', 'x-stainless-os']))
    expect(allowed).not.toContain('*')
    expect(response.headers.get('access-control-allow-methods')).toContain('POST')
  })

  test('answers carry Access-Control-Allow-Origin for the calling origin, errors included', async () => {
    const ok = await fetch(`${dev.apiUrl}/api/v1/balance`, {
      headers: { ...bearer(token), Origin: 'http://127.0.0.1:8080' },
    })
    const unauthorized = await fetch(`${dev.apiUrl}/api/v1/balance`, { headers: { Origin: 'http://127.0.0.1:8080' } })

    expect(ok.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080')
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080')
  })
})

describe('checkout', () => {
  test('the payment link’s page shows the amount; paying credits the balance once and returns to successUrl', async () => {
    const before = await getBalance(dev, token)
    const { paymentLink } = (await (
      await post('/api/v1/stripe/payment-link', { amount: 7.5, successUrl: 'http://localhost:5173/?paid=1' })
    ).json()) as { paymentLink: { url: string } }

    const checkoutPage = await fetch(paymentLink.url)
    const html = await checkoutPage.text()
    expect(checkoutPage.status).toBe(200)
    expect(html).toContain('$7.50')
    expect(html).toContain('<button type="submit">Pay $7.50</button>')

    const paid = await fetch(paymentLink.url, { method: 'POST', redirect: 'manual' })
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe('http://localhost:5173/?paid=1')
    expect(await getBalance(dev, token)).toBeCloseTo(before + 7.5, 6)

    const again = await fetch(paymentLink.url, { method: 'POST', redirect: 'manual' })
    expect(again.status).toBe(409)
    expect(await getBalance(dev, token)).toBeCloseTo(before + 7.5, 6)
  })

  test('successUrl defaults to the calling page’s origin', async () => {
    const response = await post(
      '/api/v1/stripe/payment-link',
      { amount: 1 },
      { ...bearer(token), Origin: 'http://localhost:4000' },
    )
    const { paymentLink } = (await response.json()) as { paymentLink: { url: string } }

    const paid = await fetch(paymentLink.url, { method: 'POST', redirect: 'manual' })

    expect(paid.headers.get('location')).toBe('http://localhost:4000')
  })

  test('an unknown link is a 404 page', async () => {
    expect((await fetch(`${dev.apiUrl}/checkout/plink_unknown`)).status).toBe(404)
  })
})
