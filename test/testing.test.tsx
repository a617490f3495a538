import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { EchoBalance, EchoProvider, EchoSignIn, useEcho } from 'echo-rtk'
import { EchoClient, isInsufficientFunds } from 'echo-rtk/client'
import * as testing from 'echo-rtk/testing'
import { echoFixtures, echoHandlers, seedEchoSession } from 'echo-rtk/testing'

import { server } from './support/server'

const config = { appId: 'app-123', apiUrl: 'https://echo.test' }

function Wallet() {
  const { balance } = useEcho()
  return balance === null ? null : <EchoBalance />
}

describe('echo-rtk/testing, as an app uses it in its own tests', () => {
  it('exports exactly its public names', () => {
    expect(Object.keys(testing).sort()).toEqual(['echoFixtures', 'echoHandlers', 'seedEchoSession'])
  })

  it('starts an EchoProvider signed in, with the balance from the handlers', async () => {
    server.use(...echoHandlers({ apiUrl: config.apiUrl, balance: 42 }))
    seedEchoSession({ appId: config.appId, apiUrl: config.apiUrl })
    render(
      <EchoProvider config={config}>
        <EchoSignIn />
        <Wallet />
      </EchoProvider>,
    )
    expect(screen.getByText(/Signed in as Ada Lovelace/)).toBeDefined()
    await waitFor(() => expect(screen.getByText('$42.00')).toBeDefined())
    window.localStorage.clear()
  })

  it('answers every /api/v1 call in the wire shapes, and 401 without a token', async () => {
    server.use(...echoHandlers({ apiUrl: config.apiUrl }))
    const client = new EchoClient({ apiKey: 'test-key', apiUrl: config.apiUrl })
    await expect(client.apps.list()).resolves.toEqual({ apps: [echoFixtures.app] })
    await expect(client.balance.get()).resolves.toEqual(echoFixtures.balance)
    await expect(client.balance.getFree('app-123')).resolves.toEqual(echoFixtures.freeTierBalance)
    await expect(client.payments.createPaymentLink({ amount: 5 })).resolves.toMatchObject({ paymentLink: { url: 'https://checkout.echo.test/link-1', amount: 5 } })
    await expect(client.users.get()).resolves.toEqual(echoFixtures.account)
    const anonymous = await fetch(`${config.apiUrl}/api/v1/balance`)
    expect(anonymous.status).toBe(401)
  })

  it('answers the router with a 402 page when the credit is spent', async () => {
    server.use(...echoHandlers({ outOfCredits: true }))
    const response = await fetch('https://echo.router.merit.systems/chat/completions', {
      method: 'POST',
      headers: { Authorization: 'Bearer t' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [] }),
    })
    expect(response.status).toBe(402)
    expect(isInsufficientFunds({ statusCode: response.status })).toBe(true)
  })
})
