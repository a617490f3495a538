import { configureStore } from '@reduxjs/toolkit'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Provider, useSelector } from 'react-redux'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { echoApi, echoMiddleware, echoReducers, EchoProvider, EchoSignIn, SignedIn, SignedOut, useEcho } from 'echo-rtk'

import { CONFIG, echoStoresPerTest } from '../support/echoStores'
import { renderWithEcho } from '../support/renderWithEcho'
import { serveEcho } from '../support/testEcho'

const { newStore, signInThroughEcho } = echoStoresPerTest()

afterEach(() => {
  vi.restoreAllMocks()
})

const quietly = () => vi.spyOn(console, 'error').mockImplementation(() => undefined)

function Status() {
  const { status, user } = useEcho()
  return <p>{`${status}:${user?.name ?? '-'}`}</p>
}

describe('EchoProvider', () => {
  it('where the browser refuses localStorage (storage blocked), still works for the page instead of crashing', () => {
    const blocked = vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError')
    })
    render(
      <StrictMode>
        <p>My app</p>
        <EchoProvider config={CONFIG}>
          <Status />
          <EchoSignIn />
        </EchoProvider>
      </StrictMode>,
    )
    expect(screen.getByText('unauthenticated:-')).toBeDefined()
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
    expect(blocked).toHaveBeenCalled()
  })

  it('where the browser refuses localStorage, sign-in says so instead of leaving for Echo and never coming back signed in', async () => {
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError')
    })
    const navigate = vi.fn()
    const onError = vi.fn()
    render(
      <EchoProvider config={CONFIG}>
        <EchoSignIn navigate={navigate} onError={onError} />
      </EchoProvider>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1))
    expect(onError.mock.calls[0]![0]).toMatchObject({
      name: 'EchoError',
      message:
        'Sign-in needs localStorage, which this browser blocks for this page (allow this site to store data, or open the app in a tab of its own) while starting sign-in',
    })
    expect(navigate).not.toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false)
  })

  it('creates its own store and shows a stored session as signed in on the first render after mount', async () => {
    serveEcho()
    await signInThroughEcho()
    renderWithEcho(<Status />)
    expect(screen.getByText('authenticated:Ada Lovelace')).toBeDefined()
  })

  it('shows a stored session signed in on the first render, before any request leaves', async () => {
    serveEcho()
    await signInThroughEcho()
    const sent = vi.spyOn(globalThis, 'fetch')
    const seenAtRender: { status: string; requests: number }[] = []
    function FirstRender() {
      const { status } = useEcho()
      seenAtRender.push({ status, requests: sent.mock.calls.length })
      return null
    }
    // As a browser runs it: React's own scheduling, not act(), which would flush everything at once.
    const reactGlobals = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean | undefined }
    const actEnvironment = reactGlobals.IS_REACT_ACT_ENVIRONMENT
    reactGlobals.IS_REACT_ACT_ENVIRONMENT = false
    const root = createRoot(document.body.appendChild(document.createElement('div')))
    try {
      root.render(
        <EchoProvider config={CONFIG}>
          <FirstRender />
        </EchoProvider>,
      )
      await vi.waitFor(() => expect(sent.mock.calls.length).toBeGreaterThan(0))
      expect(seenAtRender[0]).toEqual({ status: 'authenticated', requests: 0 })
    } finally {
      root.unmount()
      reactGlobals.IS_REACT_ACT_ENVIRONMENT = actEnvironment
    }
  })

  it('works with a host store set up with echoReducers and echoMiddleware', async () => {
    serveEcho()
    await signInThroughEcho()
    const store = configureStore({
      reducer: { ...echoReducers },
      middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware),
    })
    renderWithEcho(<Status />, { store })
    expect(screen.getByText('authenticated:Ada Lovelace')).toBeDefined()
    expect(store.getState().echo.auth.status).toBe('authenticated')
  })

  it('refuses a host store without the echo reducers, naming them', () => {
    quietly()
    const store = configureStore({ reducer: { todos: (state: string[] = []) => state } })
    expect(() => renderWithEcho(<Status />, { store: store as never })).toThrow(
      /this store has no echo reducers\. Add them/,
    )
  })

  it('refuses a host store without echoMiddleware, naming it', () => {
    quietly()
    const store = configureStore({
      reducer: echoReducers,
      middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoApi.middleware),
    })
    expect(() => renderWithEcho(<Status />, { store })).toThrow(/this store has no echoMiddleware\. Add it/)
  })

  it('refuses a config without an appId at once, naming the field', () => {
    quietly()
    expect(() => renderWithEcho(<Status />, { config: { appId: '' } })).toThrow(
      'EchoConfig.appId is required: pass your app\'s id from the Echo dashboard (got "")',
    )
  })

  it('reports a config changed after mount instead of building a second session', () => {
    quietly()
    const store = newStore()
    const { rerender } = render(
      <EchoProvider config={CONFIG} store={store}>
        <Status />
      </EchoProvider>,
    )
    expect(() =>
      rerender(
        <EchoProvider config={{ ...CONFIG, appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f52' }} store={store}>
          <Status />
        </EchoProvider>,
      ),
    ).toThrow(/<EchoProvider> config changed after mount .* give it a new key/)
  })

  it('names the changed config in a production build too, without the advice', () => {
    quietly()
    const store = newStore()
    const { rerender } = render(
      <EchoProvider config={CONFIG} store={store}>
        <Status />
      </EchoProvider>,
    )
    vi.stubEnv('NODE_ENV', 'production')
    try {
      expect(() =>
        rerender(
          <EchoProvider config={{ ...CONFIG, appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f52' }} store={store}>
            <Status />
          </EchoProvider>,
        ),
      ).toThrow(
        /^echo-rtk: <EchoProvider> config changed after mount \(\["2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50".*\] -> \["2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f52".*\]\)$/,
      )
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("keeps two providers on one page apart, and leaves the app's own react-redux store alone", async () => {
    serveEcho()
    await signInThroughEcho()
    const hostStore = configureStore({ reducer: { greeting: (state: string = 'hello from the host') => state } })
    function HostGreeting() {
      return <p>{useSelector<{ greeting: string }, string>((state) => state.greeting)}</p>
    }
    render(
      <StrictMode>
        <Provider store={hostStore}>
          <EchoProvider config={CONFIG}>
            <Status />
            <HostGreeting />
          </EchoProvider>
          <EchoProvider config={{ ...CONFIG, appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53' }}>
            <Status />
          </EchoProvider>
        </Provider>
      </StrictMode>,
    )
    expect(screen.getByText('authenticated:Ada Lovelace')).toBeDefined()
    expect(screen.getByText('unauthenticated:-')).toBeDefined()
    expect(screen.getByText('hello from the host')).toBeDefined()
  })

  it('SignedIn and SignedOut render their children only in their state', () => {
    renderWithEcho(
      <>
        <SignedIn>inside</SignedIn>
        <SignedOut>
          <EchoSignIn />
        </SignedOut>
      </>,
      { store: newStore() },
    )
    expect(screen.queryByText('inside')).toBeNull()
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
  })
})
