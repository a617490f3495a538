// Server mode in the page (EchoConfig.session: 'server'): the same provider, hooks and components,
// talking only to the app's own server, which echo-rtk/testing plays with echo-rtk's real server
// handler in front of its msw Echo. The page holds no token: not in the store, storage, requests.
import { createOpenAI } from '@ai-sdk/openai'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { generateText } from 'ai'
import { StrictMode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'

import {
  EchoBalance,
  EchoProvider,
  EchoSignIn,
  EchoSignOut,
  SignedIn,
  SignedOut,
  useEcho,
  useEchoModelProvider,
  useEchoRouter,
  useGetUserQuery,
  type EchoConfig,
} from 'echo-rtk'
import { echoFixtures, echoHandlers, echoSignIn } from 'echo-rtk/testing'

import { server } from '../support/server'

const PAGE = window.location.origin
const config: EchoConfig = {
  appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
  apiUrl: 'https://echo.test',
  session: 'server',
}

/** Every request the page sends, with its headers. */
function pageRequests() {
  const sent: { url: string; authorization: string | null }[] = []
  const listener = ({ request }: { request: Request }) => {
    sent.push({ url: request.url, authorization: request.headers.get('authorization') })
  }
  server.events.on('request:start', listener)
  return sent
}

afterEach(() => {
  server.events.removeAllListeners()
  window.localStorage.clear()
  window.history.replaceState(null, '', '/')
})

function Account() {
  const { user, getToken } = useEcho()
  const { data: account } = useGetUserQuery()
  return (
    <>
      <p>Hello {user?.name}</p>
      {account && <p>Account {account.email}</p>}
      <button onClick={() => void getToken().then((token) => (document.title = String(token)))}>Token</button>
    </>
  )
}

function App({ navigate }: { navigate?: (url: string) => void }) {
  return (
    <StrictMode>
      <EchoProvider config={config}>
        <SignedOut>
          <EchoSignIn {...(navigate === undefined ? {} : { navigate })} />
        </SignedOut>
        <SignedIn>
          <Account />
          <EchoBalance />
          <EchoSignOut />
        </SignedIn>
      </EchoProvider>
    </StrictMode>
  )
}

describe('server mode', () => {
  it('a signed-in user on the server: the page shows them, their balance and account, and holds no token', async () => {
    const echo = echoHandlers({ ...config, signedIn: true, balance: 12.5 })
    server.use(...echo)
    const sent = pageRequests()
    render(<App />)
    expect(await screen.findByText(`Hello ${echoFixtures.userinfo.name}`)).toBeDefined()
    expect(await screen.findByText('$12.50')).toBeDefined()
    expect(await screen.findByText(`Account ${echoFixtures.account.email}`)).toBeDefined()
    await userEvent.click(screen.getByRole('button', { name: 'Token' }))
    await waitFor(() => expect(document.title).toBe('null'))
    const fromPage = sent.filter(({ url }) => url.startsWith(PAGE))
    expect(fromPage.map(({ url }) => new URL(url).pathname)).toEqual(
      expect.arrayContaining(['/api/echo/session', '/api/echo/api/v1/balance', '/api/echo/api/v1/user']),
    )
    expect(fromPage.every(({ authorization }) => authorization === null)).toBe(true)
    // The page asked only its own server; the server asked Echo, with the token.
    expect(sent.filter(({ url }) => !url.startsWith(PAGE) && !url.startsWith('https://echo.test'))).toEqual([])
    expect(JSON.stringify(window.localStorage)).not.toContain('test-access')
  })

  it('signs in through the server and comes back to the page it left, with its query and hash', async () => {
    server.use(...echoHandlers({ ...config }))
    window.history.replaceState(null, '', '/settings/billing?tab=2#x')
    const flow = echoSignIn()
    const { unmount } = render(<App navigate={flow.navigate} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }))
    const back = await flow.backFromEcho()
    expect(back).toBe(`${PAGE}/settings/billing?tab=2#x`)
    unmount()
    render(<App />)
    expect(await screen.findByText(`Hello ${echoFixtures.userinfo.name}`)).toBeDefined()
    expect(window.location.href).toBe(`${PAGE}/settings/billing?tab=2#x`)
  })

  it("model calls go to the app's server: the router and an AI SDK provider, billed to the user", async () => {
    const echo = echoHandlers({ ...config, signedIn: true, answer: 'Hi from Echo' })
    server.use(...echo)
    let said: Promise<string> | undefined
    function Ask() {
      const router = useEchoRouter()
      const openai = useEchoModelProvider(createOpenAI)
      return (
        <button
          onClick={() => {
            said = Promise.all([
              router.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }),
              generateText({ model: openai.chat('gpt-4o-mini'), prompt: 'Hi' }),
            ]).then(([completion, text]) => `${completion.choices[0]?.message.content} / ${text.text}`)
          }}
        >
          Ask
        </button>
      )
    }
    render(
      <EchoProvider config={config}>
        <SignedIn>
          <Ask />
        </SignedIn>
      </EchoProvider>,
    )
    await userEvent.click(await screen.findByRole('button', { name: 'Ask' }))
    await expect(said).resolves.toBe('Hi from Echo / Hi from Echo')
    const chats = echo.requests.filter(({ path }) => path === '/chat/completions')
    expect(chats).toHaveLength(2)
    expect(chats.every(({ token }) => token?.startsWith('test-access'))).toBe(true)
  })

  it('signs out on the server: signed out here, and the next call finds nobody', async () => {
    server.use(...echoHandlers({ ...config, signedIn: true }))
    render(<App />)
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }))
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeDefined()
    const session = await fetch(`${PAGE}/api/echo/session`)
    expect(await session.json()).toEqual({ user: null })
  })

  it('Echo refusing the renewal on the server: the page signs out with the session-ended words', async () => {
    const echo = echoHandlers({ ...config, signedIn: true, expiresInSeconds: 1 })
    server.use(...echo)
    function Error() {
      const { error } = useEcho()
      return <p>{error ?? 'no error'}</p>
    }
    render(
      <EchoProvider config={config}>
        <Error />
        <SignedIn>
          <Account />
        </SignedIn>
      </EchoProvider>,
    )
    expect(await screen.findByText(`Hello ${echoFixtures.userinfo.name}`)).toBeDefined()
    echo.set({ refuseRefresh: true })
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_100)))
    // The next call reaches the server, whose renewal Echo refuses.
    await act(async () => {
      window.dispatchEvent(new Event('online'))
      await new Promise((resolve) => setTimeout(resolve, 50))
    })
    expect(await screen.findByText('Your session has ended. Sign in again.', { selector: 'p' })).toBeDefined()
  })
})

describe('a sign-in that comes back refused, in server mode', () => {
  function ErrorLine() {
    const { error, status } = useEcho()
    return <p>{`${status}: ${error ?? 'no error'}`}</p>
  }
  const app = (navigate?: (url: string) => void) => (
    <EchoProvider config={config}>
      <ErrorLine />
      <EchoSignIn {...(navigate === undefined ? {} : { navigate })} />
    </EchoProvider>
  )

  it("shows Echo's words, and takes them out of the address bar", async () => {
    server.use(
      ...echoHandlers({
        ...config,
        failures: {
          token: { status: 400, body: { error: 'invalid_request', error_description: 'PKCE verification failed' } },
        },
      }),
    )
    window.history.replaceState(null, '', '/settings?tab=2')
    const flow = echoSignIn()
    const { unmount } = render(app(flow.navigate))
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }))
    await flow.backFromEcho()
    unmount()
    render(app())
    expect(
      await screen.findByText('unauthenticated: Sign-in was refused: PKCE verification failed (access_denied)'),
    ).toBeDefined()
    expect(window.location.href).toBe(`${PAGE}/settings?tab=2`)
  })

  it('never shows words a link from elsewhere put in the address bar', async () => {
    server.use(...echoHandlers({ ...config }))
    window.history.replaceState(null, '', '/?echo_sign_in_error=access_denied&echo_sign_in_error_description=Call+us')
    render(app())
    expect(await screen.findByText('unauthenticated: no error')).toBeDefined()
  })
})
