// Where <EchoProvider> is, and is not: a second provider for the same app inside the first, a
// component left outside any provider (inside the app's own react-redux <Provider>), an app id
// that is no Echo app id. Each works as the user guessed, or says at once what to do.
import { configureStore } from '@reduxjs/toolkit'
import { render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  EchoAccount,
  EchoBalance,
  EchoProvider,
  EchoSignIn,
  EchoSignOut,
  EchoTopUp,
  SignedIn,
  SignedOut,
  signIn,
  useCreatePaymentLinkMutation,
  useEcho,
  useEchoFetch,
  useEchoRouter,
  useGetBalanceQuery,
  useGetFreeBalanceQuery,
} from 'echo-rtk'

import { CONFIG, echoStoresPerTest, sessionOf } from '../support/echoStores'
import { renderWithEcho } from '../support/renderWithEcho'
import { backFromEcho, codeExchanges, sentTo, serveEcho } from '../support/testEcho'

const { newStore, navigations } = echoStoresPerTest()

afterEach(() => {
  vi.restoreAllMocks()
})

const quietly = () => vi.spyOn(console, 'error').mockImplementation(() => undefined)

function Status({ label }: { label: string }) {
  const { status, user } = useEcho()
  return <p>{`${label} ${status}:${user?.name ?? '-'}`}</p>
}

describe('a second <EchoProvider> for the same app inside the first', () => {
  it('a quickstart <EchoProvider config> left inside <EchoProvider store>: one session; a sign-in coming back shows on both, exchanged once', async () => {
    const echo = serveEcho()
    await newStore().dispatch(signIn())
    await backFromEcho(navigations[0]!)
    const store = newStore()
    renderWithEcho(
      <>
        <Status label="outer" />
        <EchoProvider config={CONFIG}>
          <Status label="inner" />
          <EchoSignIn />
        </EchoProvider>
      </>,
      { store },
    )
    await sessionOf(store).signInCallback
    expect(await screen.findByText('outer authenticated:Ada Lovelace')).toBeDefined()
    expect(screen.getByText('inner authenticated:Ada Lovelace')).toBeDefined()
    expect(screen.getByText(/Signed in as Ada Lovelace/)).toBeDefined()
    expect(codeExchanges(echo)).toHaveLength(1)
    // One session read the profile once: no hidden second session, which would renew on its own.
    expect(sentTo(echo, '/api/oauth/userinfo')).toHaveLength(1)
  })

  it('the same provider twice (the same store and config): the inner one is the outer one', async () => {
    serveEcho()
    const store = newStore()
    renderWithEcho(
      <EchoProvider config={CONFIG} store={store}>
        <Status label="inner" />
      </EchoProvider>,
      { store },
    )
    expect(await screen.findByText('inner unauthenticated:-')).toBeDefined()
  })

  it('another store for the same app: refused at once, saying a page has one session per app and what to do', () => {
    quietly()
    expect(() =>
      renderWithEcho(
        <EchoProvider config={CONFIG} store={newStore()}>
          <Status label="inner" />
        </EchoProvider>,
        { store: newStore() },
      ),
    ).toThrow(
      `echo-rtk: an <EchoProvider> for app ${CONFIG.appId} is inside another one for the same app, with another store: a page has one Echo session per app. Remove the inner <EchoProvider> (everything under the outer one already has the session), or give it the outer one's config and store`,
    )
  })

  it('other settings for the same app: refused, naming them', () => {
    quietly()
    expect(() =>
      renderWithEcho(
        <EchoProvider config={{ ...CONFIG, redirectUri: 'http://localhost:3000/callback' }}>
          <Status label="inner" />
        </EchoProvider>,
        { store: newStore() },
      ),
    ).toThrow(/with other settings \(redirectUri\): a page has one Echo session per app/)
  })

  it('another app inside: a session of its own, apart from the outer one', async () => {
    serveEcho()
    const otherApp = { ...CONFIG, appId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a' }
    renderWithEcho(
      <>
        <Status label="outer" />
        <EchoProvider config={otherApp}>
          <Status label="inner" />
        </EchoProvider>
      </>,
      { store: newStore() },
    )
    expect(await screen.findByText('outer unauthenticated:-')).toBeDefined()
    expect(await screen.findByText('inner unauthenticated:-')).toBeDefined()
  })
})

describe("outside any <EchoProvider>, inside the app's own react-redux <Provider>", () => {
  const appStore = configureStore({ reducer: { todos: (state: string[] = []) => state } })
  const inAppProvider = (ui: ReactNode) => render(<Provider store={appStore}>{ui}</Provider>)

  function Hook({ use }: { use: () => unknown }) {
    use()
    return null
  }

  it.each<[string, ReactNode]>([
    ['useEcho()', <Hook use={useEcho} />],
    ['useGetBalanceQuery()', <Hook use={() => useGetBalanceQuery()} />],
    ['useGetFreeBalanceQuery()', <Hook use={() => useGetFreeBalanceQuery()} />],
    ['useCreatePaymentLinkMutation()', <Hook use={() => useCreatePaymentLinkMutation()} />],
    ['useEchoFetch()', <Hook use={useEchoFetch} />],
    ['useEchoRouter()', <Hook use={useEchoRouter} />],
    ['<EchoAccount>', <EchoAccount />],
    ['<EchoBalance>', <EchoBalance />],
    ['<EchoSignIn>', <EchoSignIn />],
    ['<EchoSignOut>', <EchoSignOut />],
    ['<EchoTopUp>', <EchoTopUp />],
    ['<SignedIn>', <SignedIn>hi</SignedIn>],
    ['<SignedOut>', <SignedOut>hi</SignedOut>],
  ])('%s says it needs an EchoProvider (not a react-redux <Provider>, which is there)', (_name, ui) => {
    quietly()
    expect(() => inAppProvider(ui)).toThrow(/^useEcho must be used within an EchoProvider$/)
  })
})

describe('an appId that is no Echo app id', () => {
  it.each(['my-echo-app', '60601628-cdb7-481e-8f7e-921981220348\n'])(
    '%j is refused at the first render, naming the field, before anything is sent',
    (appId) => {
      quietly()
      const sent = vi.spyOn(globalThis, 'fetch')
      expect(() => renderWithEcho(<Status label="app" />, { config: { ...CONFIG, appId } })).toThrow(
        /^EchoConfig\.appId (must be your app's id from the Echo dashboard, a UUID|has spaces or a line break around it)/,
      )
      expect(sent).not.toHaveBeenCalled()
    },
  )
})
