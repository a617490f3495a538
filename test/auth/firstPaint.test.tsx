// A page's first store, before its session's code has loaded (it comes from a chunk of its mode, after
// the first paint): the store already shows who is signed in, and the session, once loaded, starts from
// that and tells the store only what changed. Every other test runs with the session code loaded (as on
// a page after its first store's start, test/support/setup.ts); these load echo-rtk afresh, without it.
import { configureStore, type Middleware, type UnknownAction } from '@reduxjs/toolkit'
import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { echoFixtures, seedEchoSession } from 'echo-rtk/testing'

import { server } from '../support/server'
import { APP_ID, ECHO, serveEcho } from '../support/testEcho'

import type * as EchoEntry from '../../src/index'
import type * as RuntimeFile from '../../src/store/EchoRuntime'

type EchoModule = typeof EchoEntry
type RuntimeModule = typeof RuntimeFile

const CONFIG = { appId: APP_ID, apiUrl: ECHO, redirectUri: 'http://localhost:3000' }
let echo: EchoModule
let runtimes: RuntimeModule

beforeEach(async () => {
  vi.resetModules()
  echo = await import('../../src/index')
  runtimes = await import('../../src/store/EchoRuntime')
})
afterEach(() => {
  window.localStorage.clear()
  window.history.replaceState(null, '', '/')
})

/** A store of the app's own on the fresh echo-rtk, with every action it took in `actions`. */
function storeRecording(config: Parameters<EchoModule['createEchoStore']>[0]['config'] = CONFIG) {
  const actions: UnknownAction[] = []
  const record: Middleware = () => (next) => (action) => {
    actions.push(action as UnknownAction)
    return next(action)
  }
  const middleware = echo.createEchoMiddleware({ environment: { locks: undefined, openChannel: undefined } })
  const store = configureStore({
    reducer: echo.echoReducers,
    middleware: (getDefault) => getDefault().concat(record, middleware),
  })
  store.dispatch(echo.startEchoSession(config))
  const runtime = runtimes.runtimeOf(store.dispatch)
  const types = () => actions.map(({ type }) => type).filter((type) => type.startsWith('echo/auth/'))
  return { store, runtime, types }
}

describe('before the session has loaded', () => {
  it('a stored user is shown at once, with no request; the session, once loaded, tells it no second time and runs', async () => {
    const served = serveEcho()
    seedEchoSession(CONFIG)
    const { store, runtime, types } = storeRecording()
    expect(runtime.session).toBeUndefined()
    expect(store.getState().echo.auth).toMatchObject({
      status: 'authenticated',
      user: { id: echoFixtures.userinfo.sub, email: echoFixtures.userinfo.email },
    })
    expect(served.requests).toEqual([])
    await runtime.ready
    expect(types()).toEqual(['echo/auth/signedIn'])
    // The session runs from there: it holds the user's token.
    await expect(store.dispatch(echo.getToken())).resolves.toBe(echoFixtures.tokens.seeded.accessToken)
    store.dispatch(echo.stopEchoSession())
  })

  it('nobody stored: signed out at once, told once', async () => {
    serveEcho()
    const { store, runtime, types } = storeRecording()
    expect(store.getState().echo.auth.status).toBe('unauthenticated')
    await runtime.ready
    expect(types()).toEqual(['echo/auth/signedOut'])
    store.dispatch(echo.stopEchoSession())
  })

  it("an expired stored user waits, loading, for the session's one renewal", async () => {
    const served = serveEcho()
    seedEchoSession({ ...CONFIG, expiresInSeconds: -60 })
    const { store, runtime } = storeRecording()
    expect(store.getState().echo.auth.status).toBe('loading')
    await runtime.ready
    await vi.waitFor(() => expect(store.getState().echo.auth.status).toBe('authenticated'))
    expect(served.requests.filter(({ path }) => path === '/api/oauth/token')).toHaveLength(1)
    store.dispatch(echo.stopEchoSession())
  })

  it('a store stopped before its session loaded starts nothing; started again, it tells what it finds, once', async () => {
    serveEcho()
    seedEchoSession(CONFIG)
    const { store, runtime, types } = storeRecording()
    store.dispatch(echo.stopEchoSession())
    await runtime.ready
    store.dispatch(echo.startEchoSession(CONFIG))
    expect(types()).toEqual(['echo/auth/signedIn'])
    expect(store.getState().echo.auth.status).toBe('authenticated')
    store.dispatch(echo.stopEchoSession())
  })

  it("<EchoProvider> shows the signed-in user on its first render after mount, before the session's code is in", async () => {
    serveEcho()
    seedEchoSession(CONFIG)
    function Name() {
      const { user, status } = echo.useEcho()
      return <p>{`${status} ${user?.email ?? ''}`}</p>
    }
    const { unmount } = render(
      <echo.EchoProvider config={CONFIG}>
        <Name />
      </echo.EchoProvider>,
    )
    expect(screen.getByText(`authenticated ${echoFixtures.userinfo.email}`)).toBeDefined()
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.getByText(`authenticated ${echoFixtures.userinfo.email}`)).toBeDefined()
    unmount()
  })

  it("server mode: the app's server's answer is told before the session loads, and not asked for again", async () => {
    const served = serveEcho({ session: 'server', signedIn: true })
    const pageRequests: string[] = []
    const listener = ({ request }: { request: Request }) => {
      if (request.url.startsWith(window.location.origin)) pageRequests.push(new URL(request.url).pathname)
    }
    server.events.on('request:start', listener)
    try {
      const { store, runtime, types } = storeRecording({ ...CONFIG, session: 'server' })
      await vi.waitFor(() => expect(store.getState().echo.auth.status).toBe('authenticated'))
      await runtime.ready
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(types()).toEqual(['echo/auth/signedIn'])
      expect(pageRequests.filter((path) => path === '/api/echo/session')).toHaveLength(1)
      expect(served.requests.some(({ path }) => path === '/api/oauth/token')).toBe(true)
      store.dispatch(echo.stopEchoSession())
    } finally {
      server.events.removeListener('request:start', listener)
    }
  })
})
