import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { EchoBalance, formatUsd } from 'echo-rtk'

import { echoStoresPerTest } from '../support/echoStores'
import { fakeEcho } from '../support/fakeEcho'
import { renderWithEcho } from '../support/renderWithEcho'

const { signInThroughEcho } = echoStoresPerTest()

describe('EchoBalance', () => {
  it('shows the paid balance in dollars and the free tier left, clamped at $0.00', async () => {
    const store = await signInThroughEcho(fakeEcho())
    const { container } = renderWithEcho(<EchoBalance className="wallet" />, { store })
    expect(container.querySelector('[data-echo-balance-paid]')?.textContent).toBe('$12.50')
    // The wire says amountLeft: -1; nobody has a negative free tier.
    expect(container.querySelector('[data-echo-balance-free]')?.textContent).toBe(' Free tier $0.00')
    expect(screen.getByText('$12.50').parentElement?.className).toBe('wallet')
  })

  it('formats US dollars with two decimals', () => {
    expect([formatUsd(12.345), formatUsd(0), formatUsd(1234.5)]).toEqual(['$12.35', '$0.00', '$1,234.50'])
  })
})
