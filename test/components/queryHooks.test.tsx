import { act, render, screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'

import { EchoProvider, signOut, skipToken, useGetBalanceQuery, useGetFreeBalanceQuery, useGetUserQuery, type EchoStore } from 'echo-rtk'

import { CONFIG, echoStoresPerTest } from '../support/echoStores'
import { APP_ID, ECHO, fakeEcho } from '../support/fakeEcho'
import { server } from '../support/server'

const { newStore, signInThroughEcho } = echoStoresPerTest()

/** An always-rendered part of an app that reads Echo's API through the generated hooks. */
function Account({ skip = false }: { skip?: boolean }) {
  const balance = useGetBalanceQuery(undefined, { skip })
  const free = useGetFreeBalanceQuery()
  const user = useGetUserQuery(skip ? skipToken : undefined)
  const shown = [balance, free, user].map((query) => (query.isError ? 'error' : query.data === undefined ? 'none' : 'data'))
  return <output>{shown.join(' ')}</output>
}

/** Counts the requests each /api/v1 path got, on top of the fake Echo; `/api/v1/user` is answered too. */
function countRequests() {
  const counts: Record<string, number> = {}
  const bodies: unknown[] = []
  server.events.on('request:start', ({ request }) => {
    const path = new URL(request.url).pathname
    if (path.startsWith('/api/v1/')) counts[path] = (counts[path] ?? 0) + 1
    if (path === '/api/v1/balance/free') void request.clone().json().then((body) => bodies.push(body))
  })
  server.use(http.get(`${ECHO}/api/v1/user`, () => HttpResponse.json({ id: 'user-1', email: 'ada@example.com', name: 'Ada', image: null, picture: null, createdAt: '', updatedAt: '' })))
  return { counts, bodies }
}

/** Another tab signs in: this one hears it through storage and signs in too. */
async function signInElsewhere(store: EchoStore, echo: ReturnType<typeof fakeEcho>) {
  await signInThroughEcho(echo)
  const key = Object.keys(window.localStorage).find((name) => name.startsWith('oidc.user:'))!
  act(() => {
    window.dispatchEvent(new StorageEvent('storage', { key, oldValue: null, newValue: window.localStorage.getItem(key), storageArea: window.localStorage }))
  })
  expect(store.getState().echo.auth.status).toBe('authenticated')
}

describe('query hooks that need a user', () => {
  it('send nothing and show no error while signed out, then run once someone signs in, and drop their data at sign-out', async () => {
    const echo = fakeEcho()
    const { counts, bodies } = countRequests()
    const store = newStore()
    render(
      <EchoProvider config={CONFIG} store={store}>
        <Account />
      </EchoProvider>,
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.getByRole('status').textContent).toBe('none none none')
    expect(counts).toEqual({})
    await signInElsewhere(store, echo)
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('data data data'))
    // The free tier defaulted to the provider's app.
    expect(bodies).toContainEqual({ echoAppId: APP_ID })
    await act(() => store.dispatch(signOut()))
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('none none none'))
    server.events.removeAllListeners()
  })

  it('skip and skipToken still skip while signed in', async () => {
    const { counts } = countRequests()
    const store = await signInThroughEcho(fakeEcho())
    const before = { ...counts }
    render(
      <EchoProvider config={CONFIG} store={store}>
        <Account skip />
      </EchoProvider>,
    )
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('none data none'))
    expect(counts['/api/v1/user']).toBeUndefined()
    expect(counts['/api/v1/balance']).toBe(before['/api/v1/balance'])
    server.events.removeAllListeners()
  })
})
