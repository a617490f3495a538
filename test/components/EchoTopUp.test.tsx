import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'

import { EchoTopUp, insufficientFundsDetected } from 'echo-rtk'

import { echoStoresPerTest } from '../support/echoStores'
import { ECHO, fakeEcho } from '../support/fakeEcho'
import { renderWithEcho } from '../support/renderWithEcho'
import { server } from '../support/server'

const { newStore, signInThroughEcho } = echoStoresPerTest()

async function topUp(props: Parameters<typeof EchoTopUp>[0] = {}) {
  const echo = fakeEcho()
  const store = await signInThroughEcho(echo)
  const navigate = vi.fn<(url: string) => void>()
  renderWithEcho(<EchoTopUp navigate={navigate} {...props} />, { store })
  return { echo, store, navigate, amount: screen.getByLabelText('Amount (USD)'), button: screen.getByRole('button', { name: 'Add credits' }) }
}

describe('EchoTopUp', () => {
  it('turns an amount into a payment link and opens it', async () => {
    const { amount, button, navigate, echo } = await topUp()
    await userEvent.clear(amount)
    await userEvent.type(amount, '25')
    await userEvent.click(button)
    expect(navigate).toHaveBeenCalledWith('https://checkout.echo.test/link-1')
    expect(echo.counts.paymentLinks).toBe(1)
  })

  it('opens checkout in a tab of its own, opened at the click and cut off from this page, and marks the return as that tab', async () => {
    const echo = fakeEcho()
    const store = await signInThroughEcho(echo)
    const bodies: { successUrl?: string }[] = []
    server.use(
      http.post(`${ECHO}/api/v1/stripe/payment-link`, async ({ request }) => {
        bodies.push((await request.json()) as { successUrl?: string })
        return HttpResponse.json({ paymentLink: { id: 'l1', url: 'https://checkout.echo.test/l1' } })
      }),
    )
    const checkoutTab = { opener: window as unknown, location: { replace: vi.fn() }, close: vi.fn() }
    const open = vi.spyOn(window, 'open').mockReturnValue(checkoutTab as unknown as Window)
    renderWithEcho(<EchoTopUp />, { store })
    await userEvent.click(screen.getByRole('button', { name: 'Add credits' }))
    expect(open).toHaveBeenCalledWith('', '_blank')
    expect(checkoutTab.opener).toBeNull()
    expect(checkoutTab.location.replace).toHaveBeenCalledWith('https://checkout.echo.test/l1')
    expect(bodies).toEqual([{ amount: 10, description: 'Echo Credits', successUrl: `${window.location.origin}/?echo_top_up=tab` }])
  })

  it('closes the tab it opened when the link cannot be made', async () => {
    const store = await signInThroughEcho(fakeEcho())
    server.use(http.post(`${ECHO}/api/v1/stripe/payment-link`, () => HttpResponse.json({ message: 'Stripe is down' }, { status: 503 })))
    const checkoutTab = { opener: null, location: { replace: vi.fn() }, close: vi.fn() }
    vi.spyOn(window, 'open').mockReturnValue(checkoutTab as unknown as Window)
    renderWithEcho(<EchoTopUp />, { store })
    await userEvent.click(screen.getByRole('button', { name: 'Add credits' }))
    expect(checkoutTab.close).toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toBe('{"message":"Stripe is down"} while creating payment link')
  })

  it('with checkoutIn="this-tab" and its own navigate, marks the return as this page', async () => {
    const bodies: { successUrl?: string }[] = []
    const { button, navigate } = await topUp({ checkoutIn: 'this-tab', successUrl: 'https://app.test/billing?plan=pro' })
    server.use(
      http.post(`${ECHO}/api/v1/stripe/payment-link`, async ({ request }) => {
        bodies.push((await request.json()) as { successUrl?: string })
        return HttpResponse.json({ paymentLink: { id: 'l1', url: 'https://checkout.echo.test/l1' } })
      }),
    )
    await userEvent.click(button)
    expect(navigate).toHaveBeenCalledWith('https://checkout.echo.test/l1')
    expect(bodies[0]?.successUrl).toBe('https://app.test/billing?plan=pro&echo_top_up=page')
  })

  it.each(['', '0.5', '0', '-3', 'e'])('refuses an amount of %j: Add credits is disabled', async (typed) => {
    const { amount, button } = await topUp()
    await userEvent.clear(amount)
    if (typed !== '') await userEvent.type(amount, typed)
    expect(button).toHaveProperty('disabled', true)
  })

  it('refuses to follow a link that is neither https nor on the Echo host', async () => {
    const { button, navigate } = await topUp()
    server.use(
      http.post(`${ECHO}/api/v1/stripe/payment-link`, () =>
        HttpResponse.json({ paymentLink: { id: 'x', url: 'javascript:alert(1)', amount: 10, currency: 'usd', status: 'created', created: 1 } }),
      ),
    )
    await userEvent.click(button)
    expect(navigate).not.toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toBe('Refusing to open a payment link that is neither https nor on https://echo.test: javascript:alert(1) while creating payment link')
  })

  it('says why when the link cannot be made', async () => {
    const onError = vi.fn()
    const { button } = await topUp({ onError })
    server.use(http.post(`${ECHO}/api/v1/stripe/payment-link`, () => HttpResponse.json({ message: 'Stripe is down' }, { status: 502 })))
    await userEvent.click(button)
    expect(screen.getByRole('alert').textContent).toBe('{"message":"Stripe is down"} while creating payment link')
    expect(onError).toHaveBeenCalledTimes(1)
  })

  it('offers itself once Echo has answered 402', async () => {
    const store = await signInThroughEcho(fakeEcho())
    renderWithEcho(<EchoTopUp onlyWhenOutOfCredits />, { store })
    expect(screen.queryByLabelText('Amount (USD)')).toBeNull()
    act(() => {
      store.dispatch(insufficientFundsDetected())
    })
    expect(screen.getByRole('status').textContent).toBe('You are out of credits. Add credits to keep going.')
    expect(screen.getByLabelText('Amount (USD)')).toBeDefined()
  })

  it('is disabled while nobody is signed in', () => {
    renderWithEcho(<EchoTopUp />, { store: newStore() })
    expect(screen.getByRole('button', { name: 'Add credits' })).toHaveProperty('disabled', true)
  })
})
