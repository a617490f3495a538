// echo-rtk/testing: msw handlers and fixtures with Echo's wire shapes, for apps' own tests.
import { http, HttpResponse, type HttpHandler } from 'msw'

import type { Balance, EchoAccount, EchoApp, FreeTierBalance, SupportedModel, SupportedModelsResponse } from './api/wireTypes'
import type { UserInfoClaims } from './auth/echoUser'
import { DEFAULT_API_URL, DEFAULT_ROUTER_URL } from './config'

const APP: EchoApp = {
  id: 'app-123',
  name: 'Test App',
  description: 'An app for tests',
  profilePictureUrl: null,
  bannerImageUrl: null,
  homepageUrl: 'https://example.com',
  isPublic: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
}
const MODELS: SupportedModel[] = [
  { model_id: 'gpt-4o-mini', provider: 'openai', input_cost_per_token: 1.5e-7, output_cost_per_token: 6e-7 },
  { model_id: 'claude-3-5-haiku-20241022', provider: 'anthropic', input_cost_per_token: 8e-7, output_cost_per_token: 4e-6 },
]

/**
 * Echo's answers as plain data, in the shapes of the live server.
 *
 * @example
 * expect(screen.getByText('$10.00')).toBeDefined() // echoFixtures.balance.balance is 10
 */
export const echoFixtures = {
  userinfo: {
    sub: 'user-1',
    email: 'ada@example.com',
    email_verified: true,
    name: 'Ada Lovelace',
    preferred_username: 'ada',
    given_name: 'Ada',
    family_name: 'Lovelace',
    updated_at: 1_767_225_600,
  } satisfies UserInfoClaims,
  balance: { totalPaid: 10, totalSpent: 0, balance: 10, currency: 'USD' } satisfies Balance,
  freeTierBalance: {
    spendPoolBalance: 100,
    userSpendInfo: { userId: 'user-1', echoAppId: APP.id, spendPoolId: 'pool-1', amountSpent: 0.5, spendLimit: 1, amountLeft: 0.5 },
  } satisfies FreeTierBalance,
  app: APP,
  account: {
    id: 'user-1',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    image: null,
    picture: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  } satisfies EchoAccount,
  supportedModels: { models: MODELS, models_by_provider: groupByProvider(MODELS) } satisfies SupportedModelsResponse,
  /** The answer every model call gives. */
  answer: 'Hello from Echo.',
}

/** Options of {@link echoHandlers}. */
export interface EchoHandlersOptions {
  /** Defaults to `DEFAULT_API_URL`. */
  apiUrl?: string
  /** Defaults to `DEFAULT_ROUTER_URL`. */
  baseRouterUrl?: string
  /** The paid balance in US dollars. Defaults to 10. */
  balance?: number
  /** The router answers 402 (an HTML page, as Echo's does): the user's credit is spent. */
  outOfCredits?: boolean
}

/**
 * msw handlers that answer like Echo: the eight `/api/v1` calls, the token and userinfo endpoints,
 * and OpenAI- and Anthropic-style chat on the router (streamed when the body asks). Calls without
 * a bearer token get 401 (API) or 402 (router), as from Echo.
 *
 * @example
 * const server = setupServer(...echoHandlers({ apiUrl: 'https://echo.test' }))
 */
export function echoHandlers({ apiUrl = DEFAULT_API_URL, baseRouterUrl = DEFAULT_ROUTER_URL, balance = 10, outOfCredits = false }: EchoHandlersOptions = {}): HttpHandler[] {
  const api = (path: string) => `${apiUrl.replace(/\/+$/, '')}${path}`
  const router = (path: string) => `${baseRouterUrl.replace(/\/+$/, '')}${path}`
  const balanceAnswer: Balance = { totalPaid: balance, totalSpent: 0, balance, currency: 'USD' }
  let issued = 0
  return [
    http.post(api('/api/oauth/token'), () => {
      issued += 1
      return HttpResponse.json({
        access_token: `test-access-${issued}`,
        token_type: 'Bearer',
        expires_in: 900,
        refresh_token: `test-refresh-${issued}`,
        refresh_token_expires_in: 2_592_000,
        scope: 'llm:invoke offline_access',
      })
    }),
    http.get(api('/api/oauth/userinfo'), ({ request }) => (hasBearer(request) ? HttpResponse.json(echoFixtures.userinfo) : unauthorized())),
    http.get(api('/api/v1/apps'), ({ request }) =>
      hasBearer(request) ? HttpResponse.json({ items: [APP], page: 0, page_size: 10, total_count: 1, has_next: false }) : unauthorized(),
    ),
    http.get(api('/api/v1/apps/:id'), ({ request, params }) =>
      !hasBearer(request) ? unauthorized() : params.id === APP.id ? HttpResponse.json(APP) : HttpResponse.json({ message: 'App not found' }, { status: 404 }),
    ),
    http.get(api('/api/v1/balance'), ({ request }) => (hasBearer(request) ? HttpResponse.json(balanceAnswer) : unauthorized())),
    http.post(api('/api/v1/balance/free'), ({ request }) => (hasBearer(request) ? HttpResponse.json(echoFixtures.freeTierBalance) : unauthorized())),
    http.get(api('/api/v1/supported-models'), ({ request }) => (hasBearer(request) ? HttpResponse.json(echoFixtures.supportedModels) : unauthorized())),
    http.post(api('/api/v1/stripe/payment-link'), async ({ request }) => {
      if (!hasBearer(request)) return unauthorized()
      const { amount } = (await request.json()) as { amount?: unknown }
      if (typeof amount !== 'number' || amount < 1) return HttpResponse.json({ message: 'Invalid amount', errors: [{ path: ['amount'] }] }, { status: 400 })
      return HttpResponse.json({
        paymentLink: { id: 'link-1', url: 'https://checkout.echo.test/link-1', amount, currency: 'usd', status: 'created', created: 1_767_225_600 },
        payment: { id: 'payment-1', amount, status: 'pending' },
      })
    }),
    http.get(api('/api/v1/user'), ({ request }) => (hasBearer(request) ? HttpResponse.json(echoFixtures.account) : unauthorized())),
    http.post(api('/api/v1/user/referral'), ({ request }) =>
      hasBearer(request) ? HttpResponse.json({ success: true, message: 'Referral registered' }) : unauthorized(),
    ),
    http.post(router('/chat/completions'), async ({ request }) => {
      if (!hasBearer(request) || outOfCredits) return paymentRequired()
      const { model, stream } = (await request.json()) as { model?: string; stream?: boolean }
      if (stream === true) return streamOf(chatChunks(model ?? 'gpt-4o-mini'))
      return HttpResponse.json({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        created: 1_767_225_600,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: echoFixtures.answer }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 },
      })
    }),
    http.post(router('/messages'), async ({ request }) => {
      if (!hasBearer(request) || outOfCredits) return paymentRequired()
      const { model, stream } = (await request.json()) as { model?: string; stream?: boolean }
      if (stream === true) return streamOf(messageEvents(model ?? 'claude-3-5-haiku-20241022'))
      return HttpResponse.json({
        id: 'msg_test',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: echoFixtures.answer }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 5, output_tokens: 4 },
      })
    }),
  ]
}

/** Options of {@link seedEchoSession}. */
export interface SeedEchoSessionOptions {
  appId: string
  /** Defaults to `DEFAULT_API_URL`. */
  apiUrl?: string
  /** The claims the stored user was signed in with. Defaults to `echoFixtures.userinfo`. */
  userinfo?: UserInfoClaims
  accessToken?: string
  /** Defaults to 900. */
  expiresInSeconds?: number
  /** Defaults to `window.localStorage`. */
  storage?: Storage
}

/**
 * Stores a signed-in user the way the session does after a sign-in, so that an `<EchoProvider>`
 * rendered next starts `authenticated`, with no request.
 *
 * @example
 * seedEchoSession({ appId: 'app-123' })
 * render(<EchoProvider config={{ appId: 'app-123' }}><App /></EchoProvider>)
 */
export function seedEchoSession({
  appId,
  apiUrl = DEFAULT_API_URL,
  userinfo = echoFixtures.userinfo,
  accessToken = 'test-access-0',
  expiresInSeconds = 900,
  storage = window.localStorage,
}: SeedEchoSessionOptions): void {
  storage.setItem(
    `oidc.user:${apiUrl.replace(/\/+$/, '')}:${appId}`,
    JSON.stringify({
      access_token: accessToken,
      refresh_token: 'test-refresh-0',
      token_type: 'Bearer',
      scope: 'llm:invoke offline_access',
      profile: userinfo,
      expires_at: Math.floor(Date.now() / 1000) + expiresInSeconds,
    }),
  )
}

function hasBearer(request: Request): boolean {
  return /^Bearer \S+$/.test(request.headers.get('authorization') ?? '')
}

function unauthorized() {
  return HttpResponse.json({ message: 'Unauthorized' }, { status: 401 })
}

function paymentRequired() {
  return new HttpResponse('<html><body><h1>402 Payment Required</h1><p>Insufficient credits.</p></body></html>', {
    status: 402,
    headers: { 'Content-Type': 'text/html' },
  })
}

/** An SSE body with no Content-Type, as Echo's router streams. */
function streamOf(events: string[]) {
  const encoder = new TextEncoder()
  return new HttpResponse(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const event of events) controller.enqueue(encoder.encode(event))
        controller.close()
      },
    }),
  )
}

function chatChunks(model: string): string[] {
  const words = echoFixtures.answer.split(/(?<= )/)
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_767_225_600, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  return [chunk({ role: 'assistant', content: '' }, null), ...words.map((word) => chunk({ content: word }, null)), chunk({}, 'stop'), 'data: [DONE]\n\n']
}

function messageEvents(model: string): string[] {
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
  return [
    event('message_start', { message: { id: 'msg_test', type: 'message', role: 'assistant', model, content: [], usage: { input_tokens: 5, output_tokens: 0 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...echoFixtures.answer.split(/(?<= )/).map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } }),
    event('message_stop', {}),
  ]
}

function groupByProvider(models: SupportedModel[]): Record<string, SupportedModel[]> {
  const groups: Record<string, SupportedModel[]> = {}
  for (const model of models) (groups[model.provider] ??= []).push(model)
  return groups
}
