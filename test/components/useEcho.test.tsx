import { renderHook, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'

import { EchoProvider, useEcho } from 'echo-rtk'

import { signInFailed } from '../../src/store/authSlice'

import { CONFIG, echoStoresPerTest } from '../support/echoStores'
import { server } from '../support/server'
import { ECHO, sentTo, serveEcho } from '../support/testEcho'

const { newStore, signInThroughEcho } = echoStoresPerTest()

const inProvider = (store: ReturnType<typeof newStore>) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <EchoProvider config={CONFIG} store={store}>
        {children}
      </EchoProvider>
    )
  }

describe('useEcho', () => {
  it('throws outside a provider', () => {
    expect(() => renderHook(() => useEcho())).toThrow(new Error('useEcho must be used within an EchoProvider'))
  })
})

describe('useEcho in a provider', () => {
  it('gives the user, the status, the balance and the resolved config', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    const { result } = renderHook(() => useEcho(), { wrapper: inProvider(store) })
    await waitFor(() => expect(result.current.balance).not.toBeNull())
    expect(result.current).toMatchObject({
      user: { id: 'user-1', name: 'Ada Lovelace' },
      status: 'authenticated',
      isAuthenticated: true,
      isLoading: false,
      error: null,
      balance: { balance: 12.5, currency: 'USD' },
      freeTierBalance: { userSpendInfo: { amountLeft: -1 } },
      isInsufficientFunds: false,
      config: {
        appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
        apiUrl: 'https://echo.test',
        scope: 'llm:invoke offline_access',
        baseRouterUrl: 'https://echo.router.merit.systems',
      },
    })
  })

  it("the user's picture comes from their Echo account (/api/v1/user's image), which Echo's userinfo leaves out", async () => {
    serveEcho({ account: { image: 'https://cdn.echo.test/ada.png' } })
    const store = await signInThroughEcho()
    const { result } = renderHook(() => useEcho(), { wrapper: inProvider(store) })
    expect(result.current.user).toMatchObject({ name: 'Ada Lovelace', picture: 'https://cdn.echo.test/ada.png' })
  })

  it('a picture in userinfo is taken as it is; an account without one, or one that fails, leaves the picture out and the sign-in as it was', async () => {
    const echo = serveEcho({
      userinfo: { sub: 'user-1', name: 'Ada Lovelace', picture: 'https://idp.test/ada.jpg' },
      account: { image: 'https://cdn.echo.test/ada.png' },
    })
    const store = await signInThroughEcho()
    expect(store.getState().echo.auth.user?.picture).toBe('https://idp.test/ada.jpg')
    echo.set({
      userinfo: { sub: 'user-1', name: 'Ada Lovelace' },
      failures: { user: { status: 500, body: { message: 'Down' } } },
    })
    const again = await signInThroughEcho()
    expect(again.getState().echo.auth).toMatchObject({
      status: 'authenticated',
      user: { name: 'Ada Lovelace', picture: null },
    })
  })

  it('createPaymentLink() never hands back a link the app should not follow (javascript:, plain http elsewhere)', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    const { result } = renderHook(() => useEcho(), { wrapper: inProvider(store) })
    for (const url of ['javascript:alert(1)', 'http://evil.example/pay', 'not a url']) {
      server.use(
        http.post(`${ECHO}/api/v1/stripe/payment-link`, () => HttpResponse.json({ paymentLink: { id: 'x', url } })),
      )
      await expect(result.current.createPaymentLink(10)).rejects.toMatchObject({
        name: 'EchoError',
        message: `Refusing to open a payment link that is neither https nor on https://echo.test: ${url} while creating payment link`,
      })
    }
    server.use(
      http.post(`${ECHO}/api/v1/stripe/payment-link`, () =>
        HttpResponse.json({ paymentLink: { id: 'x', url: 'https://echo.test/pay/1' } }),
      ),
    )
    await expect(result.current.createPaymentLink(10)).resolves.toBe('https://echo.test/pay/1')
  })

  it('refreshBalance() and createPaymentLink() reject with Not authenticated when signed out', async () => {
    const { result } = renderHook(() => useEcho(), { wrapper: inProvider(newStore()) })
    await expect(result.current.refreshBalance()).rejects.toMatchObject({
      name: 'EchoError',
      reason: 'not-authenticated',
      message: 'Not authenticated',
    })
    await expect(result.current.createPaymentLink(10)).rejects.toMatchObject({
      name: 'EchoError',
      reason: 'not-authenticated',
      message: 'Not authenticated',
    })
  })

  it('createPaymentLink(amount) resolves to the URL, described as Echo Credits and returning to the page origin', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const { result } = renderHook(() => useEcho(), { wrapper: inProvider(store) })
    await expect(result.current.createPaymentLink(15)).resolves.toBe('https://checkout.echo.test/link-1')
    expect(sentTo(echo, '/api/v1/stripe/payment-link').map(({ body }) => body)).toEqual([
      { amount: 15, description: 'Echo Credits', successUrl: window.location.origin },
    ])
  })

  it('error prefers the auth error, then the balance error, then the payment error', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    server.use(
      http.post(`${ECHO}/api/v1/stripe/payment-link`, () =>
        HttpResponse.json({ message: 'card declined' }, { status: 400 }),
      ),
    )
    const { result } = renderHook(() => useEcho(), { wrapper: inProvider(store) })
    await expect(result.current.createPaymentLink(5)).rejects.toMatchObject({
      message: '{"message":"card declined"} while creating payment link',
      userMessage: 'card declined while creating payment link',
    })
    await waitFor(() => expect(result.current.error).toBe('card declined while creating payment link'))
    server.use(http.get(`${ECHO}/api/v1/balance`, () => HttpResponse.json({ message: 'ledger down' }, { status: 503 })))
    await expect(result.current.refreshBalance()).rejects.toThrow('{"message":"ledger down"} while fetching balance')
    await waitFor(() => expect(result.current.error).toBe('ledger down while fetching balance'))
    store.dispatch(
      signInFailed({ code: 'UNKNOWN_ERROR', reason: 'sign-in-refused', message: 'Sign-in was refused: access_denied' }),
    )
    await waitFor(() => expect(result.current.error).toBe('Sign-in was refused: access_denied'))
  })
})
