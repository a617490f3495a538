// The demo, tested as an app team tests its own: echo-rtk's public exports and echo-rtk/testing only.
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'

import { echoFixtures, echoHandlers, echoSignIn, seedEchoSession, type EchoHandlersOptions } from 'echo-rtk/testing'

import { App } from '../src/App'
import { echoConfig } from '../src/echoConfig'
import { server } from './setup'

/** The demo against an msw Echo playing `scenario`, signed in unless told otherwise. */
function renderApp(scenario: EchoHandlersOptions = {}, { signedIn = true } = {}) {
  const echo = echoHandlers({ ...echoConfig, ...scenario })
  server.use(...echo)
  if (signedIn) seedEchoSession(echoConfig)
  render(<App />)
  return echo
}

const credits = () => within(screen.getByRole('region', { name: 'Credits' }))
const account = async () => {
  const button = await screen.findByRole('button', { name: /^Echo credits / })
  if (button.getAttribute('aria-expanded') !== 'true') await userEvent.click(button)
  return within(screen.getByRole('region', { name: 'Echo account' }))
}

describe('the demo', () => {
  it('signed out: offers to sign in, and shows no credits', () => {
    renderApp({}, { signedIn: false })
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
    expect(screen.queryByRole('region', { name: 'Credits' })).toBeNull()
  })

  it('signs in through Echo (the real flow: PKCE, the code, the profile)', async () => {
    server.use(...echoHandlers(echoConfig))
    const flow = echoSignIn()
    const { unmount } = render(<App signInNavigate={flow.navigate} />)
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await flow.backFromEcho()
    unmount()
    render(<App />)
    expect((await account()).getByText(echoFixtures.userinfo.name)).toBeDefined()
  })

  it("asked signed out: Echo's sign-in opens in a window of its own, and the question is kept", async () => {
    renderApp({}, { signedIn: false })
    const signInWindow = { closed: false, focus: vi.fn(), close: vi.fn(), location: { replace: vi.fn() } }
    const open = vi.spyOn(window, 'open').mockReturnValue(signInWindow as unknown as Window)
    await userEvent.clear(screen.getByLabelText('Question'))
    await userEvent.type(screen.getByLabelText('Question'), 'Why is the sky blue?')
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }))
    expect(open).toHaveBeenCalledWith('about:blank', 'echo-rtk-sign-in', expect.stringContaining('popup=yes'))
    await waitFor(() => expect(signInWindow.location.replace).toHaveBeenCalledOnce())
    expect(new URL(String(signInWindow.location.replace.mock.calls[0]![0])).pathname).toBe('/api/oauth/authorize')
    expect(screen.getByRole('listitem', { name: 'You' }).textContent).toBe('Why is the sky blue?')
    // The user closes the window: the chat says so, and nobody is signed in.
    signInWindow.closed = true
    expect(await screen.findByText(/The sign-in window was closed before signing in/)).toBeDefined()
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
  })

  it('asked signed out where the browser blocks windows: says so, and its sign-in brings the question back', async () => {
    server.use(...echoHandlers(echoConfig))
    vi.spyOn(window, 'open').mockReturnValue(null)
    const flow = echoSignIn()
    const { unmount } = render(<App signInNavigate={flow.navigate} />)
    await userEvent.clear(screen.getByLabelText('Question'))
    await userEvent.type(screen.getByLabelText('Question'), 'Why is the sky blue?')
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }))
    expect(await screen.findByText(/The browser blocked the sign-in window/)).toBeDefined()
    // The chat's own sign-in leaves the page instead, carrying the question.
    await userEvent.click(screen.getByRole('button', { name: 'Sign in to ask' }))
    await flow.backFromEcho()
    unmount()
    render(<App />)
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLTextAreaElement>('Question').value).toBe('Why is the sky blue?'),
    )
    expect(await screen.findByRole('button', { name: /^Echo credits / })).toBeDefined()
  })

  it('signed in: the name, the balance and the free tier', async () => {
    renderApp({ balance: 42 })
    expect(await credits().findByText('$42.00')).toBeDefined()
    expect(credits().getByText('Free tier $0.50')).toBeDefined()
    expect((await account()).getByText('Ada Lovelace')).toBeDefined()
  })

  it('buys credits: the amount asked for, checkout in a tab of its own', async () => {
    const echo = renderApp()
    const checkoutTab = { opener: null, location: { replace: vi.fn() }, close: vi.fn() }
    vi.spyOn(window, 'open').mockReturnValue(checkoutTab as unknown as Window)
    await userEvent.clear(credits().getByLabelText('Amount (USD)'))
    await userEvent.type(credits().getByLabelText('Amount (USD)'), '25')
    await userEvent.click(credits().getByRole('button', { name: 'Add credits' }))
    await waitFor(() => expect(checkoutTab.location.replace).toHaveBeenCalledWith(echoFixtures.checkoutUrl))
    expect(echo.requests.find((request) => request.path === '/api/v1/stripe/payment-link')?.body).toMatchObject({
      amount: 25,
    })
  })

  it('streams a chat answer: it builds up, then reads whole', async () => {
    renderApp({ answer: 'Credits pay for every answer you get here.', streamDelayMs: 20 })
    await userEvent.click(await screen.findByRole('button', { name: 'Ask' }))
    const answer = await screen.findByRole('listitem', { name: 'Assistant' })
    await waitFor(() => expect(answer.textContent).toMatch(/^Credits pay/))
    expect(answer.textContent).not.toBe('Credits pay for every answer you get here.')
    await waitFor(() => expect(answer.textContent).toBe('Credits pay for every answer you get here.'))
  })

  it('out of credits: the chat says why, and the account opens with the top-up', async () => {
    renderApp({ outOfCredits: true })
    await userEvent.click(await screen.findByRole('button', { name: 'Ask' }))
    expect(await screen.findByText('Out of credits: add some to keep chatting.')).toBeDefined()
    expect((await account()).getByText('You are out of credits. Add credits to keep going.')).toBeDefined()
  })

  it('a token Echo no longer takes is refreshed once, and the app carries on', async () => {
    const echo = renderApp({ rejectFirstAccessToken: true })
    expect(await credits().findByText('$10.00')).toBeDefined()
    expect(echo.requests.filter((request) => request.path === '/api/oauth/token')).toHaveLength(1)
  })

  it('a balance that cannot be loaded says so', async () => {
    renderApp({ failures: { balance: { status: 503, body: { message: 'Echo is down for maintenance' } } } })
    expect(await credits().findByText('Balance unavailable')).toBeDefined()
    expect(screen.getByRole('alert').textContent).toBe('Echo is down for maintenance while fetching balance')
  })
})
