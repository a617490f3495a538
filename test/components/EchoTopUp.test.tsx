import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'

import { EchoTopUp, insufficientFundsDetected } from 'echo-rtk'

import { echoStoresPerTest } from '../support/echoStores'
import { renderWithEcho } from '../support/renderWithEcho'
import { server } from '../support/server'
import { ECHO, sentTo, serveEcho } from '../support/testEcho'

const { newStore, signInThroughEcho } = echoStoresPerTest()

/** What a screen reader reads as `element`'s description: the text of what its aria-describedby names. */
const descriptionOf = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')

async function topUp(props: Parameters<typeof EchoTopUp>[0] = {}) {
  const echo = serveEcho()
  const store = await signInThroughEcho()
  const navigate = vi.fn<(url: string) => void>()
  renderWithEcho(<EchoTopUp navigate={navigate} {...props} />, { store })
  return {
    echo,
    store,
    navigate,
    amount: screen.getByLabelText('Amount (USD)'),
    button: screen.getByRole('button', { name: 'Add credits' }),
  }
}

describe('EchoTopUp', () => {
  it('turns an amount into a payment link and opens it', async () => {
    const { amount, button, navigate, echo } = await topUp()
    await userEvent.clear(amount)
    await userEvent.type(amount, '25')
    await userEvent.click(button)
    expect(navigate).toHaveBeenCalledWith('https://checkout.echo.test/link-1')
    expect(sentTo(echo, '/api/v1/stripe/payment-link')).toHaveLength(1)
  })

  it('opens checkout in a tab of its own, opened at the click and cut off from this page, and marks the return as that tab', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const checkoutTab = { opener: window as unknown, location: { replace: vi.fn() }, close: vi.fn() }
    const open = vi.spyOn(window, 'open').mockReturnValue(checkoutTab as unknown as Window)
    renderWithEcho(<EchoTopUp />, { store })
    await userEvent.click(screen.getByRole('button', { name: 'Add credits' }))
    expect(open).toHaveBeenCalledWith('', '_blank')
    expect(checkoutTab.opener).toBeNull()
    expect(checkoutTab.location.replace).toHaveBeenCalledWith('https://checkout.echo.test/link-1')
    expect(sentTo(echo, '/api/v1/stripe/payment-link').map(({ body }) => body)).toEqual([
      { amount: 10, description: 'Echo Credits', successUrl: `${window.location.origin}/?echo_top_up=tab` },
    ])
  })

  it('closes the tab it opened when the link cannot be made', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    server.use(
      http.post(`${ECHO}/api/v1/stripe/payment-link`, () =>
        HttpResponse.json({ message: 'Stripe is down' }, { status: 503 }),
      ),
    )
    const checkoutTab = { opener: null, location: { replace: vi.fn() }, close: vi.fn() }
    vi.spyOn(window, 'open').mockReturnValue(checkoutTab as unknown as Window)
    renderWithEcho(<EchoTopUp />, { store })
    await userEvent.click(screen.getByRole('button', { name: 'Add credits' }))
    expect(checkoutTab.close).toHaveBeenCalled()
    expect(descriptionOf(screen.getByRole('button', { name: 'Add credits' }))).toBe(
      'Stripe is down while creating payment link',
    )
  })

  it('with checkoutIn="this-tab" and its own navigate, marks the return as this page, with the credit before it', async () => {
    const { button, navigate, echo } = await topUp({
      checkoutIn: 'this-tab',
      successUrl: 'https://app.test/billing?plan=pro',
    })
    await userEvent.click(button)
    expect(navigate).toHaveBeenCalledWith('https://checkout.echo.test/link-1')
    expect(sentTo(echo, '/api/v1/stripe/payment-link')[0]?.body).toMatchObject({
      successUrl: 'https://app.test/billing?plan=pro&echo_top_up=page&echo_credit_before=12.5',
    })
  })

  it.each(['', '0.5', '0', '-3', 'e'])(
    'refuses an amount of %j: Add credits stays in the Tab order, disabled, and the field says why',
    async (typed) => {
      const { amount, button, echo } = await topUp()
      await userEvent.clear(amount)
      if (typed !== '') await userEvent.type(amount, typed)
      expect(button.getAttribute('aria-disabled')).toBe('true')
      expect(button).toHaveProperty('disabled', false)
      expect(amount.getAttribute('aria-invalid')).toBe('true')
      expect(descriptionOf(amount)).toBe('Enter an amount of at least $1.')
      expect(descriptionOf(button)).toBe('Enter an amount of at least $1.')
      await userEvent.tab()
      expect(document.activeElement).toBe(button)
      await userEvent.keyboard('{Enter}')
      expect(sentTo(echo, '/api/v1/stripe/payment-link')).toHaveLength(0)
      await userEvent.clear(amount)
      await userEvent.type(amount, '5')
      expect([
        button.getAttribute('aria-disabled'),
        amount.getAttribute('aria-invalid'),
        descriptionOf(amount),
      ]).toEqual(['false', 'false', ''])
    },
  )

  it('stays focused and busy while the link is made, then focused again, on success and on failure', async () => {
    const { button, echo } = await topUp()
    echo.set({ failures: { paymentLink: { status: 502, body: { message: 'Stripe is down' } } } })
    const paymentLink = echo.hold('paymentLink')
    button.focus()
    await userEvent.keyboard('{Enter}')
    expect(button.getAttribute('aria-busy')).toBe('true')
    expect(button.getAttribute('aria-disabled')).toBe('true')
    expect(document.activeElement).toBe(button)
    await userEvent.keyboard('{Enter}') // pressed again while busy: nothing more is sent
    paymentLink.release()
    await vi.waitFor(() => expect(button.getAttribute('aria-busy')).toBe('false'))
    expect(document.activeElement).toBe(button)
    expect(sentTo(echo, '/api/v1/stripe/payment-link').map(({ status }) => status)).toEqual([502])
  })

  it('refuses to follow a link that is neither https nor on the Echo host', async () => {
    const { button, navigate } = await topUp()
    server.use(
      http.post(`${ECHO}/api/v1/stripe/payment-link`, () =>
        HttpResponse.json({
          paymentLink: {
            id: 'x',
            url: 'javascript:alert(1)',
            amount: 10,
            currency: 'usd',
            status: 'created',
            created: 1,
          },
        }),
      ),
    )
    await userEvent.click(button)
    expect(navigate).not.toHaveBeenCalled()
    expect(descriptionOf(button)).toBe(
      'Refusing to open a payment link that is neither https nor on https://echo.test: javascript:alert(1) while creating payment link',
    )
  })

  it('says why when the link cannot be made', async () => {
    const onError = vi.fn()
    const { button } = await topUp({ onError })
    server.use(
      http.post(`${ECHO}/api/v1/stripe/payment-link`, () =>
        HttpResponse.json({ message: 'Stripe is down' }, { status: 502 }),
      ),
    )
    await userEvent.click(button)
    // Shown here and tied to the button, not a second alert: useEcho().error carries it to the app's alert.
    expect(descriptionOf(button)).toBe('Stripe is down while creating payment link')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(onError).toHaveBeenCalledTimes(1)
  })

  it('offers itself once Echo has answered 402', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    renderWithEcho(<EchoTopUp onlyWhenOutOfCredits />, { store })
    expect(screen.queryByLabelText('Amount (USD)')).toBeNull()
    act(() => {
      store.dispatch(insufficientFundsDetected())
    })
    expect(document.querySelector('[data-echo-top-up-out-of-credits]')?.textContent).toBe(
      'You are out of credits. Add credits to keep going.',
    )
    expect(screen.getByLabelText('Amount (USD)')).toBeDefined()
  })

  it('with two top-ups mounted, the out-of-credits line is said once, by the announcer, not by each', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    renderWithEcho(
      <>
        <EchoTopUp />
        <EchoTopUp onlyWhenOutOfCredits />
      </>,
      { store },
    )
    act(() => {
      store.dispatch(insufficientFundsDetected())
    })
    expect(document.querySelectorAll('[data-echo-top-up-out-of-credits]')).toHaveLength(2)
    const spoken = [...document.querySelectorAll('[aria-live], [role="status"], [role="alert"]')].filter(
      (region) => region.textContent !== '',
    )
    expect(spoken.map((region) => region.textContent)).toEqual(['You are out of credits. Add credits to keep going.'])
  })

  it('is disabled while nobody is signed in', () => {
    renderWithEcho(<EchoTopUp />, { store: newStore() })
    expect(screen.getByRole('button', { name: 'Add credits' })).toHaveProperty('disabled', true)
  })
})
