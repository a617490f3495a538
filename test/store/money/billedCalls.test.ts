// @vitest-environment jsdom
// The fetch under every billed call: the one gate of the daily limit, the 402 that marks the user out
// of credits, the balance refetched once after a burst of calls, and when a call counts as ended (a
// whole answer at once, a stream once read, stopped or failed). Then the session's fetch over it, with
// sign-in on demand.
import { configureStore, type Dispatch, type UnknownAction } from '@reduxjs/toolkit'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { echoReducers, EchoError, getEchoFetch, getEchoRouter, signIn, type EchoConfig } from 'echo-rtk'
import { echoApi } from '../../../src/api/query/echoApi'
import { urlOf } from '../../../src/api/tokenOrigins'
import { resolveConfig } from '../../../src/config'
import { signedIn } from '../../../src/store/authSlice'
import {
  BALANCE_REFETCH_DELAY_MS,
  createBilledFetch,
  FIRST_BALANCE_WAIT_MS,
  whenBodyEnds,
} from '../../../src/store/money/billedCalls'
import { moneyLoaded, type MoneyLoadedPayload } from '../../../src/store/money/moneySlice'
import { CONFIG, echoStoresPerTest, paintQueue, sessionOf } from '../../support/echoStores'
import { server } from '../../support/server'
import { backFromEcho, sentTo, serveEcho } from '../../support/testEcho'

const ROUTER = resolveConfig(CONFIG).baseRouterUrl
const CHAT_URL = `${ROUTER}/chat/completions`
const ADA = { id: 'user-1', email: 'ada@example.com', name: 'Ada', picture: null }
const APP_SERVER = 'https://app.test'
const ECHO_API = resolveConfig(CONFIG).apiUrl
const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hello' }] }
const encoder = new TextEncoder()

afterEach(() => {
  vi.useRealTimers()
})

/** A streamed answer as Echo's router sends one: no length and no Content-Type; `open` leaves it unfinished. */
function streamed(open = false) {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController
      controller.enqueue(encoder.encode('data: {"delta":"Hi"}\n\n'))
      if (!open) controller.close()
    },
  })
  return { response: new Response(body), finish: () => controller.close() }
}

/** A JSON answer sent in chunks: no length, so only its Content-Type says it is whole. */
function chunkedJson(contentType: string) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"answer":'))
      controller.enqueue(encoder.encode('"hello"}'))
      controller.close()
    },
  })
  return new Response(body, { headers: { 'Content-Type': contentType } })
}

/**
 * A billed fetch over `answer` (what the network answers each call), for a user with `money`, on fake
 * timers: what was sent, what the spend watch heard, and how often the balance was asked again.
 */
function billedFetchOver(
  answer: () => Response,
  money: Partial<MoneyLoadedPayload> = {},
  {
    signedInFirst = false,
    loadNow = () => Promise.resolve(),
    maxCallCost = null,
  }: { signedInFirst?: boolean; loadNow?: () => Promise<void>; maxCallCost?: number | null } = {},
) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const store = configureStore({ reducer: echoReducers })
  if (signedInFirst) store.dispatch(signedIn({ user: ADA, accessToken: 'access-1', expiresAt: Date.now() + 900_000 }))
  store.dispatch(
    moneyLoaded({ spentToday: 0, userDailyLimit: undefined, appDailyLimit: null, lowBalanceAt: 1, ...money }),
  )
  const actions: UnknownAction[] = []
  const dispatch = ((action: UnknownAction) => (actions.push(action), store.dispatch(action))) as Dispatch
  const sent: string[] = []
  const bodies: (string | null)[] = []
  const spend = { callStarted: vi.fn(), callRefused: vi.fn(), callEnded: vi.fn() }
  const billed = createBilledFetch({
    config: { baseRouterUrl: ROUTER, serverOrigins: [APP_SERVER], maxCallCost },
    environment: {
      fetch: (input, init) => {
        sent.push(urlOf(input))
        bodies.push(typeof init?.body === 'string' ? init.body : null)
        return Promise.resolve(answer())
      },
      setTimeout: (run, ms) => setTimeout(run, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    dispatch,
    getState: store.getState,
    spend,
    balance: { loadNow },
  })
  const refetchActions = () => actions.filter((action) => echoApi.util.invalidateTags.match(action))
  const balanceRefetches = () => refetchActions().length
  const outOfCredits = () => store.getState().echo.balance.isInsufficientFunds
  return { ...billed, sent, bodies, spend, balanceRefetches, refetchActions, outOfCredits }
}

const whole = (status = 200, headers: HeadersInit = { 'Content-Type': 'application/json' }) =>
  Response.json({ ok: status === 200 }, { status, headers })

describe('a billed call made before the first balance is in', () => {
  it('waits for the balance at most 5 s, then is sent even if the balance never came', async () => {
    const billed = billedFetchOver(() => whole(), {}, { signedInFirst: true, loadNow: () => new Promise(() => {}) })
    const call = billed.fetch(CHAT_URL, { method: 'POST' })
    await vi.advanceTimersByTimeAsync(FIRST_BALANCE_WAIT_MS - 1)
    expect(billed.sent).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    await call
    expect(billed.sent).toEqual([CHAT_URL])
  })
})

describe('a billed call under a price ceiling', () => {
  const post = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) })
  // gpt-4o-mini as Echo prices it: $0.15 per million input tokens, $0.60 per million output tokens.
  const worstCase = (body: string, outputTokens: number) => encoder.encode(body).length * 1.5e-7 + outputTokens * 6e-7

  it('is priced before it starts: one that could cost more whatever its answer is refused, nothing sent or counted', async () => {
    const billed = billedFetchOver(() => whole(), {}, { maxCallCost: 0.001 })
    const long = { ...CHAT, messages: [{ role: 'user', content: 'word '.repeat(10_000) }] }
    const failure = await billed.fetch(CHAT_URL, post(long)).catch((error: unknown) => error)
    expect((failure as EchoError).reason).toBe('call-cost-limit')
    expect(billed.sent).toEqual([])
    expect(billed.spend.callStarted).not.toHaveBeenCalled()
  })

  it('goes out with its output limit lowered, so that its answer cannot cost more than the ceiling', async () => {
    const billed = billedFetchOver(() => whole(), {}, { maxCallCost: 0.001 })
    await billed.fetch(CHAT_URL, post({ ...CHAT, max_tokens: 100_000 }))
    const body = billed.bodies[0]!
    const { max_tokens: limit } = JSON.parse(body) as { max_tokens: number }
    expect(limit).toBeLessThan(100_000)
    expect(worstCase(body, limit)).toBeLessThanOrEqual(0.001)
  })

  it("leaves an app server's route to that server to bound, and a call to Echo's API as it is", async () => {
    const billed = billedFetchOver(() => whole(), {}, { maxCallCost: 0.001 })
    const init = post({ ...CHAT, max_tokens: 100_000 })
    await billed.fetch(`${APP_SERVER}/api/chat`, init)
    await billed.fetch(`${ECHO_API}/api/v1/balance`, init)
    expect(billed.bodies).toEqual([init.body, init.body])
  })
})

describe('the balance after billed calls', () => {
  it('is asked again 300 ms after a call ends, not before', async () => {
    const billed = billedFetchOver(() => whole())
    await billed.fetch(CHAT_URL, { method: 'POST' })
    expect(billed.spend.callStarted).toHaveBeenCalledOnce()
    expect(billed.spend.callEnded).toHaveBeenCalledOnce()
    vi.advanceTimersByTime(BALANCE_REFETCH_DELAY_MS - 1)
    expect(billed.balanceRefetches()).toBe(0)
    vi.advanceTimersByTime(1)
    expect(billed.balanceRefetches()).toBe(1)
    vi.advanceTimersByTime(10 * BALANCE_REFETCH_DELAY_MS)
    expect(billed.balanceRefetches()).toBe(1)
    // Redux DevTools reads why.
    expect(billed.refetchActions()[0]).toMatchObject({ meta: { cause: { by: 'billed-call' } } })
  })

  it('a burst of calls is one refetch, once 300 ms have passed with none ended', async () => {
    const billed = billedFetchOver(() => whole())
    await billed.fetch(CHAT_URL, { method: 'POST' })
    vi.advanceTimersByTime(100)
    await billed.fetch(CHAT_URL, { method: 'POST' })
    await billed.fetch(CHAT_URL, { method: 'POST' })
    vi.advanceTimersByTime(BALANCE_REFETCH_DELAY_MS)
    expect(billed.balanceRefetches()).toBe(0)
    vi.advanceTimersByTime(BALANCE_REFETCH_DELAY_MS)
    expect(billed.balanceRefetches()).toBe(1)
    vi.advanceTimersByTime(10 * BALANCE_REFETCH_DELAY_MS)
    expect(billed.balanceRefetches()).toBe(1)
  })

  it('stopped (the store stops), the pending refetch never comes; a call after that has its own, 300 ms after', async () => {
    const billed = billedFetchOver(() => whole())
    await billed.fetch(CHAT_URL, { method: 'POST' })
    await billed.fetch(CHAT_URL, { method: 'POST' })
    billed.stop()
    vi.advanceTimersByTime(10 * BALANCE_REFETCH_DELAY_MS)
    expect(billed.balanceRefetches()).toBe(0)
    await billed.fetch(CHAT_URL, { method: 'POST' })
    vi.advanceTimersByTime(BALANCE_REFETCH_DELAY_MS)
    expect(billed.balanceRefetches()).toBe(1)
  })

  it('a 401 (refreshed and sent again) is not the answer that counts: the call ends, nothing is refetched', async () => {
    const billed = billedFetchOver(() => whole(401))
    expect((await billed.fetch(CHAT_URL, { method: 'POST' })).status).toBe(401)
    expect(billed.spend.callEnded).toHaveBeenCalledOnce()
    vi.advanceTimersByTime(10 * BALANCE_REFETCH_DELAY_MS)
    expect(billed.balanceRefetches()).toBe(0)
  })
})

describe('what is billed', () => {
  it('a call to anything but the router or the app’s servers is not: sent past the limit, unseen by the spend watch', async () => {
    const billed = billedFetchOver(() => whole(), { spentToday: 5, appDailyLimit: 1 })
    for (const url of [`${ECHO_API}/api/v1/balance`, 'https://elsewhere.test/v1/chat']) {
      expect((await billed.fetch(url)).status).toBe(200)
    }
    expect(billed.sent).toHaveLength(2)
    expect(billed.spend.callStarted).not.toHaveBeenCalled()
    expect(billed.spend.callEnded).not.toHaveBeenCalled()
    vi.advanceTimersByTime(10 * BALANCE_REFETCH_DELAY_MS)
    expect(billed.balanceRefetches()).toBe(0)
  })

  it('past today’s limit, a call to the router or an app server is refused before anything is sent', async () => {
    const billed = billedFetchOver(() => whole(), { spentToday: 1.5, appDailyLimit: 1.5 })
    for (const url of [CHAT_URL, `${APP_SERVER}/api/chat`]) {
      const refused = (await billed.fetch(url, { method: 'POST' }).catch((error: unknown) => error)) as EchoError
      expect(refused).toBeInstanceOf(EchoError)
      expect(refused).toMatchObject({
        code: 'UNKNOWN_ERROR',
        reason: 'spend-limit',
        message: "Today's limit for this app is reached ($1.50 of $1.50): raise it in your Echo account to keep going",
      })
    }
    expect(billed.sent).toEqual([])
    expect(billed.spend.callStarted).not.toHaveBeenCalled()
  })

  it('the router’s 402 marks the user out of credits, and the spend watch hears the call was refused', async () => {
    const billed = billedFetchOver(() => whole(402))
    expect((await billed.fetch(CHAT_URL, { method: 'POST' })).status).toBe(402)
    expect(billed.outOfCredits()).toBe(true)
    expect(billed.spend.callRefused).toHaveBeenCalledOnce()
  })

  it('an app server’s bare 402 (its own paywall) is not Echo’s; its 402 saying insufficient-funds is', async () => {
    let saysSo = false
    const billed = billedFetchOver(() => whole(402, saysSo ? { 'X-Echo-Reason': 'insufficient-funds' } : {}))
    await billed.fetch(`${APP_SERVER}/api/chat`, { method: 'POST' })
    expect(billed.outOfCredits()).toBe(false)
    expect(billed.spend.callRefused).not.toHaveBeenCalled()
    saysSo = true
    await billed.fetch(`${APP_SERVER}/api/chat`, { method: 'POST' })
    expect(billed.outOfCredits()).toBe(true)
    expect(billed.spend.callRefused).toHaveBeenCalledOnce()
  })
})

describe('when a billed call ends', () => {
  it('an answer of known length ends the call at once, before its body is read', async () => {
    const billed = billedFetchOver(
      () => new Response('plain words', { headers: { 'Content-Type': 'text/plain', 'Content-Length': '11' } }),
    )
    const response = await billed.fetch(CHAT_URL, { method: 'POST' })
    expect(billed.spend.callEnded).toHaveBeenCalledOnce()
    expect(await response.text()).toBe('plain words')
  })

  it.each(['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json', 'Application/JSON'])(
    'a JSON answer sent in chunks (%s) is read whole and handed on: the call has ended when it arrives',
    async (contentType) => {
      const billed = billedFetchOver(() => chunkedJson(contentType))
      const response = await billed.fetch(CHAT_URL, { method: 'POST' })
      expect(billed.spend.callEnded).toHaveBeenCalledOnce()
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(contentType)
      expect(await response.json()).toEqual({ answer: 'hello' })
      vi.advanceTimersByTime(BALANCE_REFETCH_DELAY_MS)
      expect(billed.balanceRefetches()).toBe(1)
    },
  )

  it.each([
    ['no Content-Type (as the router streams)', undefined],
    ['text/event-stream', 'text/event-stream'],
    ['a type that merely ends in json', 'text/x-notjson'],
  ])('a streamed answer (%s) ends once it has been read to its end', async (_name, contentType) => {
    const { response: answer } = streamed()
    if (contentType !== undefined) answer.headers.set('Content-Type', contentType)
    const billed = billedFetchOver(() => answer)
    const response = await billed.fetch(CHAT_URL, { method: 'POST' })
    expect(billed.spend.callEnded).not.toHaveBeenCalled()
    expect(await response.text()).toBe('data: {"delta":"Hi"}\n\n')
    expect(billed.spend.callEnded).toHaveBeenCalledOnce()
    vi.advanceTimersByTime(BALANCE_REFETCH_DELAY_MS)
    expect(billed.balanceRefetches()).toBe(1)
  })

  it('a stream the caller aborts ends then; one fetched with no options at all ends when read', async () => {
    const open = streamed(true)
    const billed = billedFetchOver(() => open.response)
    const abort = new AbortController()
    await billed.fetch(CHAT_URL, { method: 'POST', signal: abort.signal })
    expect(billed.spend.callEnded).not.toHaveBeenCalled()
    abort.abort()
    expect(billed.spend.callEnded).toHaveBeenCalledOnce()

    const plain = billedFetchOver(() => streamed().response)
    const response = await plain.fetch(CHAT_URL)
    await response.text()
    expect(plain.spend.callEnded).toHaveBeenCalledOnce()
  })
})

describe("the session's fetch, with sign-in on demand", () => {
  const { newStore, signInThroughEcho } = echoStoresPerTest()
  const onDemand: EchoConfig = { ...CONFIG, signInOnDemand: true, serverOrigins: [APP_SERVER] }

  it('signed in, a call through the fetch or the router goes straight out, to the router or an app server', async () => {
    const echo = serveEcho()
    server.use(http.post(`${APP_SERVER}/api/chat`, () => HttpResponse.json({ answer: 'hello' })))
    const openWindow = vi.fn(() => null)
    const store = await signInThroughEcho({ openWindow }, onDemand)
    const echoFetch = store.dispatch(getEchoFetch())
    expect((await echoFetch(CHAT_URL, { method: 'POST', body: JSON.stringify(CHAT) })).status).toBe(200)
    expect((await echoFetch(`${APP_SERVER}/api/chat`, { method: 'POST', body: '{}' })).status).toBe(200)
    await store.dispatch(getEchoRouter()).chat.completions.create(CHAT)
    expect(sentTo(echo, '/chat/completions')).toHaveLength(2)
    expect(openWindow).not.toHaveBeenCalled()
  })

  it('signed out, a call through the fetch opens the sign-in window first (blocked here: it rejects saying so)', async () => {
    const echo = serveEcho()
    const openWindow = vi.fn(() => null)
    const store = newStore({ openWindow }, onDemand)
    const echoFetch = store.dispatch(getEchoFetch())
    await expect(echoFetch(CHAT_URL, { method: 'POST', body: JSON.stringify(CHAT) })).rejects.toMatchObject({
      reason: 'popup-blocked',
    })
    expect(openWindow).toHaveBeenCalledOnce()
    expect(sentTo(echo, '/chat/completions')).toHaveLength(0)
  })

  it('a call that could never carry the token opens no window: it is refused as it would be signed in', async () => {
    serveEcho()
    const openWindow = vi.fn(() => null)
    const store = newStore({ openWindow }, onDemand)
    const echoFetch = store.dispatch(getEchoFetch())
    // A rejected promise, as fetch gives, never a throw: a caller chaining .catch() sees it.
    const answer = echoFetch('https://api.openai.com/v1/chat/completions', { method: 'POST' })
    await expect(answer).rejects.toMatchObject({ reason: 'foreign-origin' })
    expect(openWindow).not.toHaveBeenCalled()
  })
})

describe('a billed call sent before the first balance is in', () => {
  const { newStore, navigations } = echoStoresPerTest()
  const limited: EchoConfig = { ...CONFIG, dailyLimit: 0.05 }

  /** Signed in from the page's return, the balance calls still queued for after the paint: a call can go first. */
  async function signedInBeforeTheBalance() {
    const queue = paintQueue()
    await newStore({}, limited).dispatch(signIn())
    await backFromEcho(navigations.at(-1)!)
    const store = newStore(queue, limited)
    await sessionOf(store).signInCallback
    expect(store.getState().echo.balance.status).toBe('idle')
    return store
  }

  it('asks for the balance and waits for it, so that what it cost is counted, towards the daily limit too', async () => {
    const echo = serveEcho({ chargePerCall: 0.05, freeTier: null })
    const store = await signedInBeforeTheBalance()
    await store.dispatch(getEchoRouter()).chat.completions.create(CHAT)
    const asked = echo.requests.map(({ path }) => path)
    expect(asked.indexOf('/api/v1/balance')).toBeLessThan(asked.indexOf('/chat/completions'))
    await vi.waitFor(() => expect(store.getState().echo.money.lastCharge).toMatchObject({ amount: 0.05, calls: 1 }))
    expect(store.getState().echo.money.spentToday).toBe(0.05)
    await expect(store.dispatch(getEchoRouter()).chat.completions.create(CHAT)).rejects.toMatchObject({
      reason: 'spend-limit',
    })
    expect(sentTo(echo, '/chat/completions')).toHaveLength(1)
  })

  it('goes out anyway when the balance cannot be had: Echo down for it holds no call back', async () => {
    const echo = serveEcho({ chargePerCall: 0.05 })
    server.use(http.get(`${ECHO_API}/api/v1/balance`, () => new HttpResponse(null, { status: 503 })))
    const store = await signedInBeforeTheBalance()
    await store.dispatch(getEchoRouter()).chat.completions.create(CHAT)
    expect(sentTo(echo, '/chat/completions')).toHaveLength(1)
    expect(store.getState().echo.money.lastCharge).toBeNull()
  })
})

/** A streamed answer in two chunks (jsdom's Blob has no stream()). */
function answer(): Response {
  const chunks = ['chunk one ', 'chunk two'].map((text) => new TextEncoder().encode(text))
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift()
      if (chunk === undefined) controller.close()
      else controller.enqueue(chunk)
    },
  })
  return new Response(body, { status: 200, headers: { 'x-kept': 'yes' } })
}

describe('whenBodyEnds', () => {
  it('reports once when the body is read to the end, passing the body and headers through', async () => {
    const ended = vi.fn()
    const watched = whenBodyEnds(answer(), undefined, ended)
    expect(ended).not.toHaveBeenCalled()
    expect(watched.headers.get('x-kept')).toBe('yes')
    expect(await watched.text()).toBe('chunk one chunk two')
    expect(ended).toHaveBeenCalledTimes(1)
  })

  it('reports when the reader stops early (a break out of a stream)', async () => {
    const ended = vi.fn()
    const reader = whenBodyEnds(answer(), undefined, ended).body!.getReader()
    await reader.read()
    await reader.cancel()
    expect(ended).toHaveBeenCalledTimes(1)
  })

  it('reports when the call is aborted, and only once', async () => {
    const ended = vi.fn()
    const controller = new AbortController()
    const watched = whenBodyEnds(answer(), controller.signal, ended)
    controller.abort()
    await watched.body!.cancel()
    expect(ended).toHaveBeenCalledTimes(1)
  })

  it('reports at once for an answer without a body', () => {
    const ended = vi.fn()
    whenBodyEnds(new Response(null, { status: 204 }), undefined, ended)
    expect(ended).toHaveBeenCalledTimes(1)
  })

  it('reports when the connection breaks mid-body, and the reader sees the failure', async () => {
    const ended = vi.fn()
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('chunk one '))
      },
      pull(controller) {
        controller.error(new TypeError('terminated'))
      },
    })
    const watched = whenBodyEnds(new Response(broken), undefined, ended)
    await expect(watched.text()).rejects.toThrow('terminated')
    expect(ended).toHaveBeenCalledTimes(1)
  })

  it('keeps the answer as the client got it: status, status text and URL', () => {
    const original = new Response('{}', { status: 201, statusText: 'Created' })
    Object.defineProperty(original, 'url', { value: 'https://echo.router.merit.systems/v1/chat/completions' })
    const watched = whenBodyEnds(original, undefined, () => undefined)
    expect(watched.status).toBe(201)
    expect(watched.statusText).toBe('Created')
    expect(watched.url).toBe('https://echo.router.merit.systems/v1/chat/completions')
  })
})
