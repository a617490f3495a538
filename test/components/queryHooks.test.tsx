import { act, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import {
  EchoProvider,
  signOut,
  skipToken,
  useGetBalanceQuery,
  useGetFreeBalanceQuery,
  useGetUserQuery,
  type EchoStore,
} from 'echo-rtk'
import type { EchoHandlers } from 'echo-rtk/testing'

import { CONFIG, echoStoresPerTest } from '../support/echoStores'
import { APP_ID, sentTo, serveEcho } from '../support/testEcho'

const { newStore, signInThroughEcho } = echoStoresPerTest()

/** An always-rendered part of an app that reads Echo's API through the generated hooks. */
function Account({ skip = false }: { skip?: boolean }) {
  const balance = useGetBalanceQuery(undefined, { skip })
  const free = useGetFreeBalanceQuery()
  const user = useGetUserQuery(skip ? skipToken : undefined)
  const shown = [balance, free, user].map((query) =>
    query.isError ? 'error' : query.data === undefined ? 'none' : 'data',
  )
  return <output>{shown.join(' ')}</output>
}

/** The requests the served Echo got under /api/v1. */
const apiCalls = (echo: EchoHandlers) => echo.requests.filter(({ path }) => path.startsWith('/api/v1/'))

/** Another tab signs in: this one hears it through storage and signs in too. */
async function signInElsewhere(store: EchoStore) {
  await signInThroughEcho()
  const key = Object.keys(window.localStorage).find((name) => name.startsWith('oidc.user:'))!
  act(() => {
    window.dispatchEvent(
      new StorageEvent('storage', {
        key,
        oldValue: null,
        newValue: window.localStorage.getItem(key),
        storageArea: window.localStorage,
      }),
    )
  })
  expect(store.getState().echo.auth.status).toBe('authenticated')
}

describe('query hooks that need a user', () => {
  it('send nothing and show no error while signed out, then run once someone signs in, and drop their data at sign-out', async () => {
    const echo = serveEcho()
    const store = newStore()
    render(
      <EchoProvider config={CONFIG} store={store}>
        <Account />
      </EchoProvider>,
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.getByRole('status').textContent).toBe('none none none')
    expect(apiCalls(echo)).toEqual([])
    await signInElsewhere(store)
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('data data data'))
    // The free tier defaulted to the provider's app.
    expect(sentTo(echo, '/api/v1/balance/free').map(({ body }) => body)).toContainEqual({ echoAppId: APP_ID })
    await act(() => store.dispatch(signOut()))
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('none none none'))
  })

  it('skip and skipToken still skip while signed in', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const balanceCalls = sentTo(echo, '/api/v1/balance').length
    // The sign-in itself read the account once, for the user's picture.
    const userCalls = sentTo(echo, '/api/v1/user').length
    render(
      <EchoProvider config={CONFIG} store={store}>
        <Account skip />
      </EchoProvider>,
    )
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('none data none'))
    expect(sentTo(echo, '/api/v1/user')).toHaveLength(userCalls)
    expect(sentTo(echo, '/api/v1/balance')).toHaveLength(balanceCalls)
  })
})
