import { configureStore } from '@reduxjs/toolkit'
import { act, render, screen } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { EchoProvider, EchoSignIn, echoReducers, useEcho } from 'echo-rtk'
import { echoSignIn } from 'echo-rtk/testing'

import { createEchoMiddleware } from '../../src/store/middleware/echoMiddleware'
import type { EchoEnvironment } from '../../src/auth/environment'
import { CONFIG } from '../support/echoStores'
import { server } from '../support/server'
import { codeExchanges, refreshGrants, serveEcho } from '../support/testEcho'

/** Work a store queued for after the page's paint (the balance calls after a sign-in): the test says when it runs. */
function paintQueue() {
  const queued: (() => void)[] = []
  return {
    afterPaint: (run: () => void) => void queued.push(run),
    paint: () => {
      for (const run of queued.splice(0)) run()
    },
  }
}

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
