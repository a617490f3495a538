import { render, screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { StrictMode } from 'react'
import { describe, expect, it } from 'vitest'

import { EchoBalance, EchoProvider, EchoTopUp, formatUsd, insufficientFundsDetected, useEcho } from 'echo-rtk'
import { echoHandlers, seedEchoSession } from 'echo-rtk/testing'

import { CONFIG, echoStoresPerTest } from '../support/echoStores'
import { renderWithEcho } from '../support/renderWithEcho'
import { server } from '../support/server'
import { ECHO, serveEcho } from '../support/testEcho'

const { signInThroughEcho } = echoStoresPerTest()

describe('EchoBalance', () => {
  it('shows the paid balance in dollars and the free tier left, clamped at $0.00', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    const { container } = renderWithEcho(<EchoBalance className="wallet" />, { store })
    expect(container.querySelector('[data-echo-balance-paid]')?.textContent).toBe('$12.50')
    // The wire says amountLeft: -1; nobody has a negative free tier.
    expect(container.querySelector('[data-echo-balance-free]')?.textContent).toBe(' Free tier $0.00')
    expect(screen.getByText('$12.50').parentElement?.className).toBe('wallet')
  })

  it('formats US dollars with two decimals, and anything that is not a number as —', () => {
    expect([formatUsd(12.345), formatUsd(0), formatUsd(1234.5), formatUsd(-0.02), formatUsd(1_234_567.891)]).toEqual([
      '$12.35',
      '$0.00',
      '$1,234.50',
      '-$0.02',
      '$1,234,567.89',
    ])
    expect([formatUsd(Number.NaN), formatUsd(Infinity), formatUsd(null), formatUsd('12' as never)]).toEqual([
      '—',
      '—',
      '—',
      '—',
    ])
  })

  it('never shows an amount under a cent as $0.00: two significant digits, or < $0.01 where space is short', () => {
    expect([
      formatUsd(0.0031),
      formatUsd(0.00000315),
      formatUsd(0.005),
      formatUsd(-0.0031),
      formatUsd(0.000000001),
    ]).toEqual(['$0.0031', '$0.0000031', '$0.005', '-$0.0031', '< $0.00000001'])
    expect([
      formatUsd(0.0031, { short: true }),
      formatUsd(-0.0031, { short: true }),
      formatUsd(0, { short: true }),
      formatUsd(2.5, { short: true }),
    ]).toEqual(['< $0.01', '> -$0.01', '$0.00', '$2.50'])
  })

  it('a balance that is down to fractions of a cent (Echo serves calls while more than $0.0001 is left) shows what is left', async () => {
    serveEcho({ balance: 0.0031, freeTier: null })
    const store = await signInThroughEcho()
    const { container } = renderWithEcho(<EchoBalance />, { store })
    expect(container.querySelector('[data-echo-balance-paid]')?.textContent).toBe('$0.0031')
  })

  it('an app without a free tier (Echo answers a pool of $0, spendPoolId null) shows no free-tier line', async () => {
    serveEcho({ balance: 10, freeTier: null })
    const store = await signInThroughEcho()
    const { container } = renderWithEcho(<EchoBalance />, { store })
    expect(container.querySelector('[data-echo-balance-paid]')?.textContent).toBe('$10.00')
    expect(container.querySelector('[data-echo-balance-free]')).toBeNull()
    expect(store.getState().echo.balance.freeTierBalance?.userSpendInfo.spendPoolId).toBeNull()
  })

  it.each([
    ['a balance of {} and a free tier without userSpendInfo', {}, { spendPoolBalance: 5 }],
    ['a balance of [] and a free tier of []', [], []],
    ['text where numbers belong', { balance: '12' }, { userSpendInfo: { amountLeft: 'lots' } }],
  ])('%s: shows — and never crashes the host app around it', async (_name, balance, freeTier) => {
    serveEcho()
    const store = await signInThroughEcho()
    server.use(
      http.get(`${ECHO}/api/v1/balance`, () => HttpResponse.json(balance)),
      http.post(`${ECHO}/api/v1/balance/free`, () => HttpResponse.json(freeTier)),
    )
    // An app whose own markup sits outside the provider: a crash inside would unmount it all.
    function Credit() {
      const { balance: raw, refreshBalance } = useEcho()
      return (
        <>
          <EchoBalance />
          <EchoTopUp onlyWhenOutOfCredits navigate={() => undefined} />
          <button type="button" onClick={() => void refreshBalance()}>
            Refresh
          </button>
          <output>{raw === null ? 'none' : 'some'}</output>
        </>
      )
    }
    const { container } = render(
      <StrictMode>
        <header>My app</header>
        <EchoProvider config={CONFIG} store={store}>
          <Credit />
        </EchoProvider>
      </StrictMode>,
    )
    store.dispatch(insufficientFundsDetected())
    screen.getByRole('button', { name: 'Refresh' }).click()
    await screen.findByText('some')
    await expect.poll(() => container.querySelector('[data-echo-balance-paid]')?.textContent).toBe('—')
    expect(screen.getByText('My app')).toBeDefined()
    if (container.querySelector('[data-echo-balance-free]') !== null)
      expect(container.querySelector('[data-echo-balance-free]')?.textContent).toBe(' Free tier —')
    // Nothing in an odd answer counts as credit: the out-of-credits offer stays.
    expect(screen.getAllByText('You are out of credits. Add credits to keep going.').length).toBeGreaterThan(0)
  })

  it('says the balance is unavailable when it could not be loaded, instead of loading forever', async () => {
    server.use(...echoHandlers({ apiUrl: ECHO }))
    server.use(http.get(`${ECHO}/api/v1/balance`, () => HttpResponse.json({ message: 'Internal' }, { status: 500 })))
    seedEchoSession({ appId: CONFIG.appId, apiUrl: ECHO })
    const { container } = renderWithEcho(<EchoBalance />)
    await expect
      .poll(() => container.querySelector('[data-echo-balance-paid]')?.textContent)
      .toBe('Balance unavailable')
    expect(container.querySelector('[data-echo-balance]')?.getAttribute('data-echo-balance')).toBe('failed')
  })
})
