import { configureStore } from '@reduxjs/toolkit'
import { act, render, screen } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  createEchoStore,
  EchoProvider,
  EchoSignIn,
  echoReducers,
  getEchoFetch,
  getEchoRouter,
  startEchoSession,
  stopEchoSession,
  useEcho,
  type EchoStore,
} from 'echo-rtk'
import { echoSignIn, paidAtCheckout } from 'echo-rtk/testing'

import { createEchoMiddleware } from '../../src/store/middleware/echoMiddleware'
import type { EchoEnvironment, PageSignal } from '../../src/auth/environment'
import { resolveConfig } from '../../src/config'
import { CONFIG, echoStoresPerTest, paintQueue } from '../support/echoStores'
import { server } from '../support/server'
import { codeExchanges, ECHO, refreshGrants, sentTo, serveEcho } from '../support/testEcho'

/** An app's own store with echo-rtk's parts, as the README sets one up; `environment` replaces parts of the browser. */
function appStore(environment: Partial<EchoEnvironment>) {
  return configureStore({
    reducer: echoReducers,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().concat(createEchoMiddleware({ environment: { locks: undefined, ...environment } })),
  })
}

function Account({ navigate }: { navigate: (url: string) => void }) {
  const { status } = useEcho()
  return (
    <>
      <p>{`status: ${status}`}</p>
      <EchoSignIn navigate={navigate} />
    </>
  )
}

/** The oidc.<state> entries (a sign-in under way: its state and PKCE verifier) in storage. */
const signInStates = () =>
  Object.keys(window.localStorage).filter((key) => key.startsWith('oidc.') && !key.startsWith('oidc.user:'))

afterEach(() => {
  window.localStorage.clear()
  window.history.replaceState(null, '', '/')
})

describe('a stopped runtime is inert', () => {
  // Each run is one app test after another, each with a fake Echo of its own: a flaky run shows in twenty.
  for (let run = 1; run <= 20; run += 1) {
    it(`a provider unmounted right after a sign-in sends nothing, and another provider's sign-in completes (run ${run})`, async () => {
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined)
      // The first test: the user signs in, the page comes back from Echo, and the test ends at once.
      serveEcho()
      const leaving = echoSignIn()
      const firstPaints = paintQueue()
      const first = render(
        <StrictMode>
          <EchoProvider config={CONFIG} store={appStore({ afterPaint: firstPaints.afterPaint })}>
            <Account navigate={leaving.navigate} />
          </EchoProvider>
        </StrictMode>,
      )
      act(() => screen.getByRole('button', { name: 'Sign in' }).click())
      await leaving.backFromEcho()
      first.unmount()
      const back = render(
        <StrictMode>
          <EchoProvider config={CONFIG} store={appStore({ afterPaint: firstPaints.afterPaint })}>
            <Account navigate={leaving.navigate} />
          </EchoProvider>
        </StrictMode>,
      )
      await screen.findByText('status: authenticated')
      back.unmount()

      // The next test: its own Echo, which knows none of the old tokens and refuses their refresh.
      server.resetHandlers()
      window.localStorage.clear()
      window.history.replaceState(null, '', '/')
      const echo = serveEcho({ refuseRefresh: true })
      const signingIn = echoSignIn()
      const next = render(
        <StrictMode>
          <EchoProvider config={CONFIG} store={appStore({})}>
            <Account navigate={signingIn.navigate} />
          </EchoProvider>
        </StrictMode>,
      )
      act(() => screen.getByRole('button', { name: 'Sign in' }).click())
      await vi.waitFor(() => expect(signInStates()).toHaveLength(1))
      const nextSignIn = signInStates()

      // The unmounted provider's page paints now: what it queued must not run.
      firstPaints.paint()
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(echo.requests.filter((request) => request.path !== '/api/oauth/authorize')).toEqual([])
      expect(refreshGrants(echo)).toEqual([])
      expect(signInStates()).toEqual(nextSignIn)

      await signingIn.backFromEcho()
      next.unmount()
      render(
        <StrictMode>
          <EchoProvider config={CONFIG} store={appStore({})}>
            <Account navigate={signingIn.navigate} />
          </EchoProvider>
        </StrictMode>,
      )
      await screen.findByText('status: authenticated')
      expect(codeExchanges(echo)).toHaveLength(1)
      expect(quiet).not.toHaveBeenCalled()
    })
  }
})

describe("the page's focus and connection", () => {
  const { signInThroughEcho } = echoStoresPerTest()
  const balanceAsked = (echo: ReturnType<typeof serveEcho>) => sentTo(echo, '/api/v1/balance').length
  const settle = () => new Promise((resolve) => setTimeout(resolve, 30))
  const online = (store: EchoStore) => store.getState().echoApi.config.online

  /** The page shown or hidden, as the browser says it: `visibilitychange` at the document, bubbling to the window. */
  function showPage(visibility: DocumentVisibilityState) {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility })
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))
  }
  afterEach(() => {
    delete (document as { visibilityState?: unknown }).visibilityState
  })

  it('a tab shown again refetches the balance; a tab hidden asks nothing', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const before = balanceAsked(echo)
    showPage('hidden')
    await settle()
    expect(balanceAsked(echo)).toBe(before)
    echo.set({ balance: 40 })
    showPage('visible')
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(40))
    expect(balanceAsked(echo)).toBe(before + 1)
  })

  it('going offline and back online is heard: RTK Query knows the page is offline, then online', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    window.dispatchEvent(new Event('offline'))
    expect(online(store)).toBe(false)
    window.dispatchEvent(new Event('online'))
    expect(online(store)).toBe(true)
  })

  it('stopped, the store hears the page no more: no refetch on focus, nothing marked offline', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    store.dispatch(stopEchoSession())
    const before = balanceAsked(echo)
    window.dispatchEvent(new Event('focus'))
    showPage('visible')
    window.dispatchEvent(new Event('offline'))
    await settle()
    expect(balanceAsked(echo)).toBe(before)
    expect(online(store)).toBe(true)
  })

  it("hears the page on the environment's one wire, as the session does, and nothing else", async () => {
    const echo = serveEcho()
    const listeners = new Set<(signal: PageSignal) => void>()
    const store = await signInThroughEcho({
      onPageSignal: (listener) => {
        listeners.add(listener)
        return () => void listeners.delete(listener)
      },
    })
    // Two stores (the page that left for Echo, the page back from it), each the session's listener and its own.
    expect(listeners.size).toBe(4)
    const before = balanceAsked(echo)
    window.dispatchEvent(new Event('focus'))
    window.dispatchEvent(new Event('offline'))
    await settle()
    expect([balanceAsked(echo), online(store)]).toEqual([before, true])
    for (const listener of listeners) listener('offline')
    expect(online(store)).toBe(false)
    for (const listener of listeners) listener('online')
    for (const listener of listeners) listener('focus')
    await vi.waitFor(() => expect(balanceAsked(echo)).toBe(before + 1))
    expect(online(store)).toBe(true)
    store.dispatch(stopEchoSession())
    expect(listeners.size).toBe(2)
  })

  it('started twice (two providers over one store), one stop still leaves it deaf to the page', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    store.dispatch(startEchoSession(CONFIG))
    store.dispatch(stopEchoSession())
    window.dispatchEvent(new Event('offline'))
    expect(online(store)).toBe(true)
  })
})

describe('a stopped runtime and the money', () => {
  const { signInThroughEcho } = echoStoresPerTest()

  it('a checkout paid while the store is stopped starts no wait', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    store.dispatch(stopEchoSession())
    paidAtCheckout(store)
    expect(store.getState().echo.money.topUp).toBeNull()
  })

  it('a balance answer that lands after the stop credits no top-up; started again, the top-up is credited', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const store = await signInThroughEcho()
    const held = echo.hold('balance')
    paidAtCheckout(store)
    await held.reached
    store.dispatch(stopEchoSession())
    echo.set({ balance: 9 })
    held.release()
    await vi.waitFor(() => expect(store.getState().echo.balance.balance?.balance).toBe(9))
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(store.getState().echo.money.topUp).toEqual({ status: 'waiting', amount: null })
    echo.set({ balance: 12 })
    store.dispatch(startEchoSession(CONFIG))
    await vi.waitFor(() => expect(store.getState().echo.money.topUp).toEqual({ status: 'credited', amount: 7 }))
  })

  it('calls through the router and the fetch together are one burst: the balance is asked again once', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const before = sentTo(echo, '/api/v1/balance').length
    const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hello' }] }
    await Promise.all([
      store.dispatch(getEchoRouter()).chat.completions.create(chat),
      store
        .dispatch(getEchoFetch())(`${resolveConfig(CONFIG).baseRouterUrl}/chat/completions`, {
          method: 'POST',
          body: JSON.stringify(chat),
        })
        .then((response) => response.text()),
    ])
    await vi.waitFor(() => expect(sentTo(echo, '/api/v1/balance')).toHaveLength(before + 1))
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(before + 1)
  })
})

describe('a store with no browser (a server, a test in Node)', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('starts and stops on a complete environment of its own, listening to no window', async () => {
    vi.stubGlobal('window', undefined)
    const storage = new Map<string, string>()
    const store = createEchoStore({
      config: { ...CONFIG, apiUrl: ECHO },
      environment: {
        location: { href: 'http://localhost:3000/' },
        history: { state: null, replaceState: () => undefined },
        storage: {
          getItem: (key: string) => storage.get(key) ?? null,
          setItem: (key: string, value: string) => void storage.set(key, value),
          removeItem: (key: string) => void storage.delete(key),
          key: (index: number) => [...storage.keys()][index] ?? null,
          get length() {
            return storage.size
          },
          clear: () => storage.clear(),
        },
        navigate: () => undefined,
        fetch: () => Promise.reject(new Error('no network here')),
        locks: undefined,
        openChannel: undefined,
        onStorage: () => () => undefined,
        onPageSignal: () => () => undefined,
        now: () => Date.now(),
        setTimeout: (run, ms) => setTimeout(run, ms),
        clearTimeout: (handle) => clearTimeout(handle as number),
        logError: () => undefined,
        logWarning: () => undefined,
      },
      startSession: true,
    })
    await vi.waitFor(() => expect(store.getState().echo.auth.status).toBe('unauthenticated'))
    store.dispatch(stopEchoSession())
  })
})
