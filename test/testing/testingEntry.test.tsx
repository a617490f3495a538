import { render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  createEchoStore,
  EchoBalance,
  EchoProvider,
  EchoSignIn,
  EchoSpend,
  EchoTopUp,
  useEcho,
  useEchoRouter,
} from 'echo-rtk'
import { EchoClient, isInsufficientFunds } from 'echo-rtk/client'
import * as testing from 'echo-rtk/testing'
import {
  clearEchoSession,
  echoEndpoints,
  echoFixtures,
  echoHandlers,
  paidAtCheckout,
  seedEchoSession,
} from 'echo-rtk/testing'

import { server } from '../support/server'

const config = {
  appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
  apiUrl: 'https://echo.test',
  baseRouterUrl: 'https://router.echo.test',
}

afterEach(() => {
  clearEchoSession()
  vi.useRealTimers()
})

function Wallet() {
  const { balance } = useEcho()
  return balance === null ? null : <EchoBalance />
}

describe('echo-rtk/testing, as an app uses it in its own tests', () => {
  it('exports exactly its public names', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'REFRESH_TIMEOUT_MS',
      'clearEchoSession',
      'echoEndpoints',
      'echoFixtures',
      'echoHandlers',
      'echoSignIn',
      'paidAtCheckout',
      'resetEchoStore',
      'seedEchoSession',
    ])
  })

  it('starts an EchoProvider signed in, with the balance from the handlers, from one config object', async () => {
    server.use(...echoHandlers({ ...config, balance: 42 }))
    seedEchoSession(config)
    render(
      <EchoProvider config={config}>
        <EchoSignIn />
        <Wallet />
      </EchoProvider>,
    )
    expect(screen.getByText(/Signed in as Ada Lovelace/)).toBeDefined()
    await waitFor(() => expect(screen.getByText('$42.00')).toBeDefined())
  })

  it('clearEchoSession() leaves the next render signed out', () => {
    server.use(...echoHandlers(config))
    seedEchoSession(config)
    window.localStorage.setItem('oidc.some-sign-in-state', '{}')
    window.localStorage.setItem('app-own-key', 'kept')
    clearEchoSession()
    // msw before 2.4 keeps its own cookie jar there too (MSW_COOKIE_STORE): that is msw's, and stays.
    expect(Object.keys(window.localStorage).filter((key) => key !== 'MSW_COOKIE_STORE')).toEqual(['app-own-key'])
    render(
      <EchoProvider config={config}>
        <EchoSignIn />
      </EchoProvider>,
    )
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
    window.localStorage.clear()
  })

  it('answers every /api/v1 call in the wire shapes, and 401 without a token', async () => {
    server.use(...echoHandlers(config))
    const client = new EchoClient({ apiKey: 'test-key', apiUrl: config.apiUrl })
    await expect(client.apps.list()).resolves.toEqual({ apps: [echoFixtures.app] })
    await expect(client.apps.get(echoFixtures.app.id)).resolves.toEqual(echoFixtures.app)
    await expect(client.balance.get()).resolves.toEqual(echoFixtures.balance)
    await expect(client.balance.getFree('2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50')).resolves.toEqual(
      echoFixtures.freeTierBalance,
    )
    await expect(client.models.supported()).resolves.toEqual({ ...echoFixtures.supportedModels, source: 'echo' })
    await expect(client.payments.createPaymentLink({ amount: 5 })).resolves.toMatchObject({
      paymentLink: { url: echoFixtures.checkoutUrl, amount: 5 },
    })
    await expect(client.users.get()).resolves.toEqual(echoFixtures.account)
    await expect(
      client.users.registerReferral({ echoAppId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', code: 'FRIEND' }),
    ).resolves.toEqual({ success: true, message: 'Referral registered' })
    const anonymous = await fetch(`${config.apiUrl}/api/v1/balance`)
    expect(anonymous.status).toBe(401)
  })

  it("gives the URL of every endpoint for a config (Echo's own by default)", () => {
    expect(echoEndpoints(config)).toMatchObject({
      balance: 'https://echo.test/api/v1/balance',
      token: 'https://echo.test/api/oauth/token',
      responses: 'https://router.echo.test/responses',
    })
    expect(echoEndpoints().chatCompletions).toBe('https://echo.router.merit.systems/chat/completions')
  })

  it('a stored session for another app or Echo is pointed out in development, instead of silently signing nobody in', () => {
    const warnings: unknown[] = []
    const warn = console.warn
    console.warn = (message: unknown) => void warnings.push(message)
    try {
      seedEchoSession({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53', apiUrl: config.apiUrl })
      render(
        <EchoProvider config={config}>
          <EchoSignIn />
        </EchoProvider>,
      )
    } finally {
      console.warn = warn
    }
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
    expect(warnings).toEqual([
      "echo-rtk: nobody is signed in to app 2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50 at https://echo.test, but this storage holds a session for https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53. If that is this app, its config's appId or apiUrl differs from the one it signed in with",
    ])
  })
})

describe('echoHandlers scenarios', () => {
  const chat = (stream = false, token = 'seeded') =>
    fetch(`${config.baseRouterUrl}/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream }),
    })

  it('outOfCredits: the balance and the free tier read 0, and the router answers 402 with a page', async () => {
    server.use(...echoHandlers({ ...config, outOfCredits: true }))
    const client = new EchoClient({ apiKey: 't', apiUrl: config.apiUrl })
    expect((await client.balance.get()).balance).toBe(0)
    expect((await client.balance.getFree('2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50')).userSpendInfo.amountLeft).toBe(0)
    const response = await chat()
    expect(response.status).toBe(402)
    expect(await response.text()).toMatch(/<h1>402 Payment Required<\/h1>/)
    expect(isInsufficientFunds({ statusCode: response.status })).toBe(true)
  })

  it('balance and freeTier set the figures; freeTier: null is an app without one, as Echo answers it', async () => {
    server.use(...echoHandlers({ ...config, balance: 3.5, freeTier: 0.25 }))
    const client = new EchoClient({ apiKey: 't', apiUrl: config.apiUrl })
    expect((await client.balance.get()).balance).toBe(3.5)
    expect((await client.balance.getFree('2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50')).userSpendInfo).toMatchObject({
      amountLeft: 0.25,
      echoAppId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
    })
    server.resetHandlers(...echoHandlers({ ...config, freeTier: null }))
    await expect(client.balance.getFree('2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50')).resolves.toEqual({
      spendPoolBalance: 0,
      userSpendInfo: {
        userId: 'user-1',
        echoAppId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
        spendPoolId: null,
        amountSpent: 0,
        spendLimit: null,
        amountLeft: 0,
      },
    })
  })

  it('answer and streamDelayMs: the chat answers that text, streamed piece by piece at that pace', async () => {
    server.use(...echoHandlers({ ...config, answer: 'One two three four', streamDelayMs: 40 }))
    const response = await chat(true)
    const reader = response.body!.getReader()
    const arrivals: number[] = []
    let text = ''
    const start = Date.now()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      arrivals.push(Date.now() - start)
      text += new TextDecoder().decode(value)
    }
    const pieces = [...text.matchAll(/"content":"([^"]*)"/g)].map((match) => match[1]).join('')
    expect(pieces).toBe('One two three four')
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(150)
    expect(response.headers.get('content-type')).toBeNull()
  })

  it('failures: an endpoint answers the status and body given, JSON or text', async () => {
    server.use(
      ...echoHandlers({
        ...config,
        failures: {
          balance: { status: 503, body: { message: 'Down' } },
          paymentLink: { status: 500, body: 'Stripe is down' },
        },
      }),
    )
    const client = new EchoClient({ apiKey: 't', apiUrl: config.apiUrl })
    await expect(client.balance.get()).rejects.toMatchObject({
      code: 'HTTP_503',
      message: '{"message":"Down"} while fetching balance',
    })
    await expect(client.payments.createPaymentLink({ amount: 5 })).rejects.toMatchObject({
      code: 'HTTP_500',
      message: 'Stripe is down while creating payment link',
    })
    await expect(client.users.get()).resolves.toEqual(echoFixtures.account)
  })

  it('rejectFirstAccessToken: the seeded token is refused once; the session refreshes once and every call goes through', async () => {
    const echo = echoHandlers({ ...config, rejectFirstAccessToken: true })
    server.use(...echo)
    seedEchoSession(config)
    render(
      <EchoProvider config={config}>
        <Wallet />
      </EchoProvider>,
    )
    await waitFor(() => expect(screen.getByText('$10.00')).toBeDefined())
    const tokenRequests = echo.requests.filter((request) => request.path === '/api/oauth/token')
    expect(tokenRequests.map((request) => request.body)).toMatchObject([
      { grant_type: 'refresh_token', refresh_token: echoFixtures.tokens.seeded.refreshToken },
    ])
    expect(
      echo.requests.filter((request) => request.path === '/api/v1/balance').map((request) => request.token),
    ).toEqual([echoFixtures.tokens.seeded.accessToken, echoFixtures.tokens.issued(1).accessToken])
  })

  it('refuseRefresh with a refused token: the session ends, and says so', async () => {
    server.use(...echoHandlers({ ...config, rejectFirstAccessToken: true, refuseRefresh: true }))
    seedEchoSession(config)
    const logged = console.error
    console.error = () => undefined
    try {
      function Status() {
        const { status, error } = useEcho()
        return <p>{`${status}: ${error ?? ''}`}</p>
      }
      render(
        <EchoProvider config={config}>
          <Status />
        </EchoProvider>,
      )
      await waitFor(() =>
        expect(screen.getByText('unauthenticated: Your session has ended. Sign in again.')).toBeDefined(),
      )
    } finally {
      console.error = logged
    }
  })

  it('records each request the app made: method, path, body, token, when, and what Echo answered', async () => {
    const echo = echoHandlers(config)
    server.use(...echo)
    const client = new EchoClient({ apiKey: 'key-1', apiUrl: config.apiUrl })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.parse('2026-05-01T12:00:00Z'))
    await client.payments.createPaymentLink({ amount: 25, successUrl: 'https://app.test/' })
    expect(echo.requests).toEqual([
      {
        method: 'POST',
        path: '/api/v1/stripe/payment-link',
        body: { amount: 25, description: 'Echo Credits', successUrl: 'https://app.test/' },
        token: 'key-1',
        at: Date.parse('2026-05-01T12:00:00Z'),
        status: 200,
      },
    ])
  })
})

describe('the money scenarios, as an app tests its own screens', () => {
  /** Asks the router once from a button, as an app's chat would. */
  function AskOnce() {
    const router = useEchoRouter()
    return (
      <button
        onClick={() => void router.chat.completions.create({ model: 'gpt-4o-mini', messages: [] }).catch(() => {})}
      >
        Ask
      </button>
    )
  }
  function LimitLine() {
    const { isSpendLimitReached, isLowBalance } = useEcho()
    return (
      <p>
        {isSpendLimitReached ? 'limit reached' : 'within the limit'}, {isLowBalance ? 'low' : 'not low'}
      </p>
    )
  }

  it('spend so far, and the limit reached: chargePerCall with a dailyLimit in the config', async () => {
    const limited = { ...config, dailyLimit: 0.05 }
    server.use(...echoHandlers({ ...limited, chargePerCall: 0.05 }))
    seedEchoSession(limited)
    render(
      <EchoProvider config={limited}>
        <AskOnce />
        <EchoSpend last />
        <LimitLine />
        <Wallet />
      </EchoProvider>,
    )
    await screen.findByText('Today: $0.00 of $0.05')
    // Asked at once, before the balance is in: the call waits for it, so what it cost is still counted.
    expect(screen.queryByText('$10.00')).toBeNull()
    screen.getByRole('button', { name: 'Ask' }).click()
    expect(await screen.findByText('Last answer: $0.05', {}, { timeout: 3_000 })).toBeDefined()
    expect(screen.getByText('limit reached, not low')).toBeDefined()
  })

  it('a low balance: balance under $1.00', async () => {
    server.use(...echoHandlers({ ...config, balance: 0.4, freeTier: null }))
    seedEchoSession(config)
    render(
      <EchoProvider config={config}>
        <LimitLine />
      </EchoProvider>,
    )
    expect(await screen.findByText('within the limit, low')).toBeDefined()
  })

  it('a top-up still arriving: paidAtCheckout(store), then the credits with echo.set', async () => {
    const echo = echoHandlers({ ...config, balance: 10, freeTier: null })
    server.use(...echo)
    seedEchoSession(config)
    const store = createEchoStore({ config, startSession: false })
    render(
      <EchoProvider config={config} store={store}>
        <EchoTopUp />
        <Wallet />
      </EchoProvider>,
    )
    await screen.findByText('$10.00')
    paidAtCheckout(store)
    expect(await screen.findByText('Payment received, adding credits…')).toBeDefined()
    echo.set({ balance: 15 })
    // The next check is 2 s after the first.
    await waitFor(
      () => expect(document.querySelector('[data-echo-top-up-status]')?.textContent).toBe('Credits added: +$5.00.'),
      { timeout: 4_000 },
    )
  })
})
