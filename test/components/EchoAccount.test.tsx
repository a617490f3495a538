import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'

import { EchoAccount, getToken, insufficientFundsDetected } from 'echo-rtk'

import { signedOut } from '../../src/store/authSlice'

import { echoStoresPerTest } from '../support/echoStores'
import { renderWithEcho } from '../support/renderWithEcho'
import { server } from '../support/server'
import { ECHO, serveEcho } from '../support/testEcho'

const { newStore, signInThroughEcho } = echoStoresPerTest()
/** What the provider's announcer is saying now, a message each. */
const announced = () =>
  [...(document.querySelector('[data-echo-announcer]')?.children ?? [])].map((message) => message.textContent)

async function signedInAccount() {
  serveEcho()
  const store = await signInThroughEcho()
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
  ])("counts the free tier into the credit only as far as the app's pool can pay (pool $%s)", async (pool, label) => {
    serveEcho({ freeTier: 0.5, spendPool: pool })
    const store = await signInThroughEcho()
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

  it('opens by itself after a 402, offering the top-up with the out-of-credits line, said once, without taking the focus', async () => {
    const { store, button } = await signedInAccount()
    const elsewhere = screen.getByText('Elsewhere in the app')
    elsewhere.tabIndex = -1
    elsewhere.focus()
    act(() => void store.dispatch(insufficientFundsDetected()))
    expect(button.getAttribute('aria-expanded')).toBe('true')
    expect(document.querySelector('[data-echo-top-up-out-of-credits]')?.textContent).toBe(
      'You are out of credits. Add credits to keep going.',
    )
    await waitFor(() =>
      expect(announced()).toEqual([
        'You are out of credits. Add credits to keep going.',
        'Your Echo account is open to add credits.',
      ]),
    )
    expect(document.activeElement).toBe(elsewhere)
  })

  it('says the panel opening after the out-of-credits line without saying that line again (each message added once, nothing re-read)', async () => {
    const { store } = await signedInAccount()
    const region = document.querySelector('[data-echo-announcer]')!
    // A screen reader reads what a live region adds; with aria-atomic it would read the whole region again.
    expect(region.getAttribute('aria-atomic')).toBe('false')
    expect(region.getAttribute('aria-relevant')).toBe('additions')
    const added: string[] = []
    let changedInPlace = 0
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'characterData' || record.target !== region) changedInPlace += 1
        for (const node of record.addedNodes) added.push(node.textContent ?? '')
      }
    })
    observer.observe(region, { childList: true, subtree: true, characterData: true })
    act(() => void store.dispatch(insufficientFundsDetected()))
    await waitFor(() => expect(announced()).toHaveLength(2))
    observer.disconnect()
    expect(added).toEqual([
      'You are out of credits. Add credits to keep going.',
      'Your Echo account is open to add credits.',
    ])
    expect(changedInPlace).toBe(0)
  })

  it('with two accounts on the page (say a header and a drawer), each event is said once and ids stay unique', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    renderWithEcho(
      <>
        <EchoAccount />
        <EchoAccount />
      </>,
      { store },
    )
    await screen.findAllByRole('button', { name: 'Echo credits $12.50' })
    act(() => void store.dispatch(insufficientFundsDetected()))
    await waitFor(() =>
      expect(announced()).toEqual([
        'You are out of credits. Add credits to keep going.',
        'Your Echo account is open to add credits.',
      ]),
    )
    const ids = [...document.querySelectorAll('[id]')].map((element) => element.id)
    expect(new Set(ids).size).toBe(ids.length)
    // The balance in the panels is not a live region: one change is not said once per copy.
    expect(document.querySelectorAll('[aria-live]')).toHaveLength(1)
  })

  it('Escape closes the panel from its amount field too, and the focus goes back to the button', async () => {
    const { button } = await signedInAccount()
    await userEvent.click(button)
    await userEvent.click(screen.getByLabelText('Amount (USD)'))
    await userEvent.keyboard('{Escape}')
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(button)
  })

  it("the panel's name and figures are labelled for screen readers", async () => {
    const { button } = await signedInAccount()
    await userEvent.click(button)
    const panel = screen.getByRole('region', { name: 'Echo account' })
    expect(panel.querySelector('[data-echo-account-user]')?.textContent).toBe('Signed in as Ada Lovelace')
    expect(panel.querySelector('[data-echo-balance]')?.textContent).toBe('Balance $12.50 Free tier $0.00')
  })

  it('a failed top-up shows when it happens, and no more once the panel is opened again', async () => {
    const { button } = await signedInAccount()
    server.use(
      http.post(`${ECHO}/api/v1/stripe/payment-link`, () =>
        HttpResponse.json({ message: 'Stripe is down' }, { status: 502 }),
      ),
    )
    await userEvent.click(button)
    await userEvent.click(screen.getByRole('button', { name: 'Add credits' }))
    expect(await screen.findByText('Stripe is down while creating payment link')).toBeDefined()
    await userEvent.keyboard('{Escape}')
    await userEvent.click(button)
    expect(screen.queryByText('Stripe is down while creating payment link')).toBeNull()
  })

  it("Enter on the panel's Sign out: the focus moves to the Sign in button that replaces the account", async () => {
    const { button } = await signedInAccount()
    await userEvent.click(button)
    screen.getByRole('button', { name: 'Sign out' }).focus()
    await userEvent.keyboard('{Enter}')
    const signIn = await screen.findByRole('button', { name: 'Sign in' })
    expect(document.activeElement).toBe(signIn)
  })

  it('the session ending while the focus is on the account button: the focus moves to Sign in, and the end is said', async () => {
    const { store, button } = await signedInAccount()
    button.focus()
    act(
      () =>
        void store.dispatch(
          signedOut(
            { by: 'echo', error: 'invalid_grant' },
            {
              code: 'UNKNOWN_ERROR',
              reason: 'session-ended',
              message: 'Your session has ended. Sign in again.',
            },
          ),
        ),
    )
    const signIn = await screen.findByRole('button', { name: 'Sign in' })
    expect(document.activeElement).toBe(signIn)
    await waitFor(() => expect(announced()).toEqual(['Your session has ended. Sign in again.']))
  })

  it('a session ending while the focus is elsewhere leaves the focus where it is', async () => {
    const { store } = await signedInAccount()
    const elsewhere = screen.getByText('Elsewhere in the app')
    elsewhere.tabIndex = -1
    elsewhere.focus()
    act(() => void store.dispatch(signedOut({ by: 'user' })))
    await screen.findByRole('button', { name: 'Sign in' })
    expect(document.activeElement).toBe(elsewhere)
  })

  it('while the session cannot reach Echo, the button says Reconnecting… beside the credit; the user stays signed in, with no error', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const { store } = await signedInAccount()
    server.use(
      http.post(`${ECHO}/api/oauth/token`, () =>
        HttpResponse.json({ message: 'Service Unavailable' }, { status: 503 }),
      ),
    )
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 16 * 60_000)
    await act(() =>
      store.dispatch(getToken()).then(
        () => undefined,
        () => undefined,
      ),
    )
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
