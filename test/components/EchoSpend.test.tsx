import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'

import { EchoAccount, EchoSpend, EchoTopUp, getEchoRouter, refreshBalance } from 'echo-rtk'
import { topUpCredited, topUpLate, topUpWaiting } from '../../src/store/money/moneySlice'
import { echoStoresPerTest } from '../support/echoStores'
import { renderWithEcho } from '../support/renderWithEcho'
import { serveEcho } from '../support/testEcho'

const { signInThroughEcho } = echoStoresPerTest()

/** What the provider's announcer has said, a message each. */
const announced = () =>
  [...(document.querySelector('[data-echo-announcer]')?.children ?? [])].map((message) => message.textContent)

describe('the money in sight, in the components', () => {
  it("<EchoSpend last> shows today's total and what the last answer cost", async () => {
    serveEcho({ chargePerCall: 0.0031 })
    const store = await signInThroughEcho()
    renderWithEcho(<EchoSpend last />, { store })
    expect(screen.getByText('Today: $0.00')).toBeDefined()
    await act(() => store.dispatch(getEchoRouter()).chat.completions.create({ model: 'gpt-4o-mini', messages: [] }))
    expect(await screen.findByText('Last answer: $0.0031')).toBeDefined()
    expect(screen.getByText('Today: $0.0031')).toBeDefined()
  })

  it("<EchoAccount>'s panel shows today's spend and takes the user's own daily limit", async () => {
    serveEcho()
    const store = await signInThroughEcho()
    renderWithEcho(<EchoAccount />, { store })
    await userEvent.click(await screen.findByRole('button', { name: /^Echo credits / }))
    expect(screen.getByText('Today: $0.00')).toBeDefined()
    await userEvent.type(screen.getByLabelText('Daily limit (USD)'), '0.5')
    await userEvent.click(screen.getByRole('button', { name: 'Save limit' }))
    expect(await screen.findByText('Saved')).toBeDefined()
    expect(store.getState().echo.money.userDailyLimit).toBe(0.5)
    expect(screen.getByText('Today: $0.00 of $0.50')).toBeDefined()
    for (const [typed, said] of [
      ['0', 'Enter an amount of at least $0.01, or leave it empty for no limit.'],
      ['-1', 'Enter an amount of at least $0.01, or leave it empty for no limit.'],
      ['0.001', 'Enter an amount of at least $0.01, or leave it empty for no limit.'],
      ['1e9', 'Enter an amount of at most $10,000.00, or leave it empty for no limit.'],
    ]) {
      await userEvent.clear(screen.getByLabelText('Daily limit (USD)'))
      await userEvent.type(screen.getByLabelText('Daily limit (USD)'), typed!)
      await userEvent.click(screen.getByRole('button', { name: 'Save limit' }))
      expect(await screen.findByText(said!)).toBeDefined()
      expect(screen.getByLabelText('Daily limit (USD)').getAttribute('aria-invalid')).toBe('true')
      expect(store.getState().echo.money.userDailyLimit).toBe(0.5)
    }
  })

  it("<EchoAccount>'s panel shows the last answer's cost beside today's, once one is known", async () => {
    serveEcho({ chargePerCall: 0.02 })
    const store = await signInThroughEcho()
    renderWithEcho(<EchoAccount />, { store })
    await userEvent.click(await screen.findByRole('button', { name: /^Echo credits / }))
    expect(document.querySelector('[data-echo-spend-last]')).toBeNull()
    await act(() => store.dispatch(getEchoRouter()).chat.completions.create({ model: 'gpt-4o-mini', messages: [] }))
    expect(await screen.findByText('Last answer: $0.02')).toBeDefined()
    expect(document.querySelector('[data-echo-account-spend]')?.textContent).toBe('Today: $0.02 · Last answer: $0.02')
  })

  it('when the balance falls low, offers a quiet "Low balance: add credits" beside the credit (said once), which opens the panel', async () => {
    const echo = serveEcho({ balance: 5, freeTier: null })
    const store = await signInThroughEcho()
    renderWithEcho(<EchoAccount />, { store })
    await screen.findByRole('button', { name: 'Echo credits $5.00' })
    expect(screen.queryByRole('button', { name: 'Low balance: add credits' })).toBeNull()
    echo.set({ balance: 0.4 })
    await act(() => store.dispatch(refreshBalance()))
    const nudge = await screen.findByRole('button', { name: 'Low balance: add credits' })
    expect(announced()).toEqual(['Your Echo credit is running low.'])
    await userEvent.click(nudge)
    expect(screen.getByRole('region', { name: 'Echo account' })).toBeDefined()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('<EchoTopUp> says where a top-up stands, and the announcer says its end once', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    renderWithEcho(<EchoTopUp />, { store })
    const status = () => document.querySelector('[data-echo-top-up-status]')?.textContent
    act(() => void store.dispatch(topUpWaiting()))
    expect(status()).toBe('Payment received, adding credits…')
    act(() => void store.dispatch(topUpLate()))
    expect(status()).toBe('Your payment went through, but the credits have not arrived yet. This page keeps checking.')
    act(() => void store.dispatch(topUpCredited(5)))
    expect(status()).toBe('Credits added: +$5.00.')
    expect(announced()).toEqual([
      'Your payment went through, but the credits have not arrived yet. This page keeps checking.',
      'Credits added: +$5.00.',
    ])
  })
})
