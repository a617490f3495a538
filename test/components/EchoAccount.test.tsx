import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'

import { EchoAccount, getToken, insufficientFundsDetected } from 'echo-rtk'

import { echoStoresPerTest } from '../support/echoStores'
import { ECHO, fakeEcho } from '../support/fakeEcho'
import { renderWithEcho } from '../support/renderWithEcho'
import { server } from '../support/server'

const { newStore, signInThroughEcho } = echoStoresPerTest()

async function signedInAccount() {
  const store = await signInThroughEcho(fakeEcho())
  const view = renderWithEcho(
    <>
      <p>Elsewhere in the app</p>
      <EchoAccount className="account" />
    </>,
    { store },
  )
  const button = await screen.findByRole('button', { name: 'Echo credits $12.50' })
  return { store, view, button }
}

describe('EchoAccount', () => {
  it('is the sign-in button while nobody is signed in', () => {
    renderWithEcho(<EchoAccount />, { store: newStore() })
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined()
  })

  it('signed in: a button showing the credit, which opens a panel with the balance, the top-up and the sign-out', async () => {
    const { button, view } = await signedInAccount()
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('region', { name: 'Echo account' })).toBeNull()
    await userEvent.click(button)
    expect(button.getAttribute('aria-expanded')).toBe('true')
    const panel = screen.getByRole('region', { name: 'Echo account' })
    expect(button.getAttribute('aria-controls')).toBe(panel.id)
    expect(panel.textContent).toContain('Ada Lovelace')
    expect(panel.querySelector('[data-echo-balance-paid]')?.textContent).toBe('$12.50')
    expect(screen.getByRole('button', { name: 'Add credits' })).toBeDefined()
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeDefined()
    expect(view.container.querySelector('.account')?.getAttribute('data-echo-account')).toBe('open')
  })

  it.each([
    [20, 'Echo credits $13.00'],
    [0, 'Echo credits $12.50'],
  ])('counts the free tier into the credit only as far as the app\'s pool can pay (pool $%s)', async (pool, label) => {
    const echo = fakeEcho()
    server.use(
      http.post(`${ECHO}/api/v1/balance/free`, () =>
        HttpResponse.json({ spendPoolBalance: pool, userSpendInfo: { userId: 'user-1', echoAppId: 'app-123', spendPoolId: 'p', amountSpent: 0.5, spendLimit: 1, amountLeft: 0.5 } }),
      ),
    )
    const store = await signInThroughEcho(echo)
    renderWithEcho(<EchoAccount />, { store })
    expect(await screen.findByRole('button', { name: label })).toBeDefined()
  })

  it('Escape closes the panel and puts the focus back on the button', async () => {
    const { button } = await signedInAccount()
    await userEvent.click(button)
    await userEvent.click(screen.getByLabelText('Amount (USD)'))
    await userEvent.keyboard('{Escape}')
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(button)
  })

  it('a press outside closes the panel; the button toggles it', async () => {
    const { button } = await signedInAccount()
    await userEvent.click(button)
    await userEvent.click(screen.getByText('Elsewhere in the app'))
    expect(button.getAttribute('aria-expanded')).toBe('false')
    await userEvent.click(button)
    await userEvent.click(button)
    expect(button.getAttribute('aria-expanded')).toBe('false')
  })

  it('opens by itself after a 402, offering the top-up with the out-of-credits line', async () => {
    const { store, button } = await signedInAccount()
    act(() => void store.dispatch(insufficientFundsDetected()))
    expect(button.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByRole('status').textContent).toBe('You are out of credits. Add credits to keep going.')
  })

  it('while the session cannot reach Echo, the button says Reconnecting… beside the credit; the user stays signed in, with no error', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const { store } = await signedInAccount()
    server.use(http.post(`${ECHO}/api/oauth/token`, () => HttpResponse.json({ message: 'Service Unavailable' }, { status: 503 })))
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 16 * 60_000)
    await act(() => store.dispatch(getToken()).then(() => undefined, () => undefined))
    const button = await screen.findByRole('button', { name: 'Echo credits $12.50, reconnecting' })
    expect(button.textContent).toContain('Reconnecting…')
    expect(screen.queryByRole('alert')).toBeNull()
    vi.useRealTimers()
  })

  it('signing out from the panel leaves the sign-in button', async () => {
    const { button } = await signedInAccount()
    await userEvent.click(button)
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined())
  })
})
