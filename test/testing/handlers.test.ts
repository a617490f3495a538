import { afterEach, describe, expect, it, vi } from 'vitest'

import { EchoClient } from 'echo-rtk/client'
import { echoFixtures, echoHandlers } from 'echo-rtk/testing'

import { server } from '../support/server'

const config = { appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', apiUrl: 'https://echo.test' }

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
      fetch(`${config.apiUrl}/api/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: config.appId,
        }),
      })
    expect((await refresh(echoFixtures.tokens.seeded.refreshToken)).status).toBe(200)
    echo.set({ refuseRefresh: true })
    const refused = await refresh(echoFixtures.tokens.issued(1).refreshToken)
    expect([refused.status, await refused.json()]).toEqual([
      400,
      { error: 'invalid_request', error_description: 'Invalid refresh token' },
    ])
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

describe("spendPool: what the app's free-tier pool can still pay", () => {
  it("is the free tier's spendPoolBalance, 100 unless given, and changes with echo.set", async () => {
    const client = new EchoClient({ apiKey: 'key-1', apiUrl: config.apiUrl })
    server.use(...echoHandlers(config))
    expect((await client.balance.getFree(config.appId)).spendPoolBalance).toBe(100)
    const echo = echoHandlers({ ...config, spendPool: 0, freeTier: 0.5 })
    server.use(...echo)
    expect(await client.balance.getFree(config.appId)).toMatchObject({
      spendPoolBalance: 0,
      userSpendInfo: { amountLeft: 0.5 },
    })
    echo.set({ spendPool: 20 })
    expect((await client.balance.getFree(config.appId)).spendPoolBalance).toBe(20)
  })
})

describe('echo.hold(name): an endpoint that keeps the app waiting', () => {
  it('holds each request until release(), then answers it as the scenario says then; later requests at once', async () => {
    const echo = echoHandlers({ ...config, balance: 3 })
    server.use(...echo)
    const client = new EchoClient({ apiKey: 'key-1', apiUrl: config.apiUrl })
    const balance = echo.hold('balance')
    let answered = false
    const waiting = client.balance.get().then((answer) => ((answered = true), answer))
    await balance.reached
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(answered).toBe(false)
    expect(echo.requests.map(({ path, status }) => ({ path, status }))).toEqual([
      { path: '/api/v1/balance', status: undefined },
    ]) // not answered yet
    echo.set({ balance: 4 })
    balance.release()
    expect((await waiting).balance).toBe(4)
    expect((await client.balance.get()).balance).toBe(4)
    expect(echo.requests.map(({ status }) => status)).toEqual([200, 200])
  })

  it('holds only the endpoint named', async () => {
    const echo = echoHandlers(config)
    server.use(...echo)
    const client = new EchoClient({ apiKey: 'key-1', apiUrl: config.apiUrl })
    const token = echo.hold('token')
    await expect(client.balance.get()).resolves.toMatchObject({ balance: 10 })
    token.release()
  })

  it('holds the token endpoint too: a refresh grant waits, then gets the next tokens', async () => {
    const echo = echoHandlers(config)
    server.use(...echo)
    const token = echo.hold('token')
    const refreshing = fetch(`${config.apiUrl}/api/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: echoFixtures.tokens.seeded.refreshToken,
        client_id: config.appId,
      }),
    })
    await token.reached
    token.release()
    expect(await (await refreshing).json()).toMatchObject({ access_token: echoFixtures.tokens.issued(1).accessToken })
  })
})
