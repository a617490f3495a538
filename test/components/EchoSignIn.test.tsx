import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { EchoSignIn, SignedOut, type EchoUser } from 'echo-rtk'
import type { UserInfoClaims } from 'echo-rtk/testing'

import { echoStoresPerTest } from '../support/echoStores'
import { renderWithEcho, storeWithSessionOverrides } from '../support/renderWithEcho'
import { backFromEcho, codeExchanges, serveEcho } from '../support/testEcho'

const { newStore, navigations, signInThroughEcho } = echoStoresPerTest()

afterEach(() => {
  vi.restoreAllMocks()
})

async function signedInAs(userinfo: UserInfoClaims) {
  serveEcho({ userinfo })
  const store = await signInThroughEcho()
  renderWithEcho(<EchoSignIn />, { store })
}

describe('EchoSignIn', () => {
  it('reads Sign in while signed out, with the logo', () => {
    renderWithEcho(<EchoSignIn className="mine" />, { store: newStore() })
    const button = screen.getByRole('button', { name: 'Sign in' })
    expect(button.className).toBe('mine')
    expect(button.querySelector('svg[data-echo-logo]')).not.toBeNull()
  })

  it('reads Signing in... and is disabled and busy while loading, keeps the focus, says so once, and leaves for Echo', async () => {
    const store = newStore()
    renderWithEcho(<EchoSignIn />, { store })
    screen.getByRole('button', { name: 'Sign in' }).focus()
    await userEvent.keyboard('{Enter}')
    const button = screen.getByRole('button', { name: 'Signing in...' })
    expect(button.getAttribute('aria-disabled')).toBe('true')
    expect(button.getAttribute('aria-busy')).toBe('true')
    // Disabled for screen readers and presses, yet focusable: the focus stays on it, not on <body>.
    expect(document.activeElement).toBe(button)
    expect([...document.querySelector('[data-echo-announcer]')!.children].map((said) => said.textContent)).toEqual([
      'Signing in...',
    ])
    await vi.waitFor(() => expect(navigations[0]).toMatch(/^https:\/\/echo\.test\/api\/oauth\/authorize\?/))
  })

  it('while a sign-in is under way in its window, the page stays signed out, every sign-in button reads Signing in..., and a press brings the window to the front', async () => {
    serveEcho()
    const signInWindow = {
      closed: false,
      focused: 0,
      location: { replace: vi.fn() },
      focus() {
        this.focused += 1
      },
      close() {
        this.closed = true
      },
      postMessage: vi.fn(),
    }
    const store = newStore({ openWindow: () => signInWindow, onMessage: () => () => undefined })
    const onError = vi.fn()
    renderWithEcho(
      <>
        <SignedOut>
          <p>What the page shows signed out</p>
        </SignedOut>
        <EchoSignIn popup onError={onError} />
        <EchoSignIn popup>Sign in to ask</EchoSignIn>
      </>,
      { store },
    )
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await vi.waitFor(() => expect(signInWindow.location.replace).toHaveBeenCalledOnce())
    const busy = screen.getAllByRole('button', { name: 'Signing in...' })
    expect(busy.map((button) => button.getAttribute('aria-disabled'))).toEqual(['true', 'true'])
    expect(screen.getByText('What the page shows signed out')).toBeDefined()

    await userEvent.click(busy[1]!)
    expect(signInWindow.focused).toBe(1)
    expect(signInWindow.location.replace).toHaveBeenCalledOnce()

    signInWindow.closed = true
    await vi.waitFor(() => expect(screen.getAllByRole('button', { name: /^Sign in/ })).toHaveLength(2))
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ reason: 'popup-closed' }))
  })

  it('once signed in shows Signed in as and the name', async () => {
    await signedInAs({ sub: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' })
    expect(screen.getByText('Signed in as Ada Lovelace', { exact: false }).textContent).toBe(
      ' Signed in as Ada Lovelace',
    )
    expect(screen.queryByRole('button')).toBeNull()
  })

  it('shows the email when there is no name', async () => {
    await signedInAs({ sub: 'u1', email: 'ada@example.com' })
    expect(screen.getByText(/Signed in as/).textContent).toBe(' Signed in as ada@example.com')
  })

  it('shows markup in a name as inert text', async () => {
    await signedInAs({ sub: 'u1', email: 'x@example.com', name: '<img src=x onerror=alert(1)>' })
    const label = screen.getByText(/Signed in as/)
    expect(label.textContent).toBe(' Signed in as <img src=x onerror=alert(1)>')
    expect(document.querySelector('img')).toBeNull()
  })

  it('cuts a 5,000-character name to 1,000 characters', async () => {
    await signedInAs({ sub: 'u1', email: 'x@example.com', name: 'a'.repeat(5000) })
    expect(screen.getByText(/Signed in as/).textContent).toBe(` Signed in as ${'a'.repeat(1000)}`)
  })

  it('calls onSuccess once with the user when a sign-in completes on this page', async () => {
    const echo = serveEcho()
    await newStore().dispatch((await import('echo-rtk')).signIn())
    await backFromEcho(navigations[0]!)
    const onSuccess = vi.fn<(user: EchoUser) => void>()
    renderWithEcho(<EchoSignIn onSuccess={onSuccess} />, { store: newStore() })
    await screen.findByText(/Signed in as Ada Lovelace/)
    await act(() => Promise.resolve())
    expect(onSuccess).toHaveBeenCalledTimes(1)
    expect(onSuccess).toHaveBeenCalledWith({
      id: 'user-1',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      picture: null,
    })
    expect(codeExchanges(echo)).toHaveLength(1)
  })

  it('does not call onSuccess for a session restored from storage', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    const onSuccess = vi.fn()
    window.history.replaceState(null, '', '/')
    renderWithEcho(<EchoSignIn onSuccess={onSuccess} />, { store: newStore() })
    await screen.findByText(/Signed in as/)
    await act(() => Promise.resolve())
    expect(onSuccess).not.toHaveBeenCalled()
    expect(store.getState().echo.auth.status).toBe('authenticated')
  })

  it('calls onError when the sign-in coming back fails', async () => {
    serveEcho()
    await newStore().dispatch((await import('echo-rtk')).signIn())
    const back = new URL(await backFromEcho(navigations[0]!))
    back.searchParams.set('code', 'forged')
    window.history.replaceState(null, '', back.href)
    const onError = vi.fn<(error: Error) => void>()
    renderWithEcho(<EchoSignIn onError={onError} />, { store: newStore() })
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1))
    expect(onError.mock.calls[0]![0].message).toBe('Invalid authorization code while completing sign-in')
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
  })

  it('reports Sign in failed when the redirect fails with something that is not an Error', async () => {
    // Deliberately not an Error: what a third-party redirect hook might reject with.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    const store = storeWithSessionOverrides({ signIn: () => Promise.reject('nope') })
    const onError = vi.fn<(error: Error) => void>()
    renderWithEcho(<EchoSignIn onError={onError} />, { store })
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }))
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith(new Error('Sign in failed')))
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false)
  })

  it('calls onError with the reason when the redirect cannot start', async () => {
    const onError = vi.fn<(error: Error) => void>()
    renderWithEcho(<EchoSignIn onError={onError} />, {
      store: newStore({
        navigate: () => {
          throw new Error('blocked by the browser')
        },
      }),
    })
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    // The redirect is prepared asynchronously (PKCE), so the failure arrives after the click.
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1))
    expect(onError.mock.calls[0]![0].message).toBe('blocked by the browser while starting sign-in')
  })
})
