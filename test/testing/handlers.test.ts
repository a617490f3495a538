import { afterEach, describe, expect, it, vi } from 'vitest'

import { EchoClient } from 'echo-rtk/client'
import { echoFixtures, echoHandlers } from 'echo-rtk/testing'

import { server } from '../support/server'

const config = { appId: 'app-123', apiUrl: 'https://echo.test' }

afterEach(() => {
  vi.useRealTimers()
})

describe('echo.set(changes): the scenario changed mid-test', () => {
  it('a new balance is answered from the next request on; the rest of the scenario stays', async () => {
    const echo = echoHandlers({ ...config, balance: 3, freeTier: 0.25 })
    server.use(...echo)
    const client = new EchoClient({ apiKey: 'key-1', apiUrl: config.apiUrl })
    expect((await client.balance.get()).balance).toBe(3)
    echo.set({ balance: 22.5 })
    expect((await client.balance.get()).balance).toBe(22.5)
    expect((await client.balance.getFree(config.appId)).userSpendInfo.amountLeft).toBe(0.25)
  })

  it('refuseRefresh: Echo refuses refreshes from now on, the live refresh token too', async () => {
    const echo = echoHandlers(config)
    server.use(...echo)
    const refresh = (refreshToken: string) =>
      fetch(`${config.apiUrl}/api/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: config.appId }) })
    expect((await refresh(echoFixtures.tokens.seeded.refreshToken)).status).toBe(200)
    echo.set({ refuseRefresh: true })
    const refused = await refresh(echoFixtures.tokens.issued(1).refreshToken)
    expect([refused.status, await refused.json()]).toEqual([400, { error: 'invalid_request', error_description: 'Invalid refresh token' }])
  })

  it('leaves the options it was given alone', () => {
    const options = { ...config, balance: 3 }
    echoHandlers(options).set({ balance: 4 })
    expect(options.balance).toBe(3)
  })
})

describe('echo.requests', () => {
  it('notes when each request reached Echo (Date.now(), fake timers count) and the status Echo answered', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.parse('2026-05-01T12:00:00Z'))
    const echo = echoHandlers(config)
    server.use(...echo)
    await fetch(`${config.apiUrl}/api/v1/balance`, { headers: { Authorization: 'Bearer key-1' } })
    vi.setSystemTime(Date.parse('2026-05-01T12:00:10Z'))
    await fetch(`${config.apiUrl}/api/v1/balance`)
    expect(echo.requests.map(({ at, status }) => ({ at: new Date(at).toISOString(), status }))).toEqual([
      { at: '2026-05-01T12:00:00.000Z', status: 200 },
      { at: '2026-05-01T12:00:10.000Z', status: 401 },
    ])
  })
})
