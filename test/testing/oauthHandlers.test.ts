import { afterEach, describe, expect, it, vi } from 'vitest'

import { echoEndpoints, echoFixtures, echoHandlers, type EchoHandlersOptions } from 'echo-rtk/testing'

import { server } from '../support/server'

const config = { appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', apiUrl: 'https://echo.test' }
const urls = echoEndpoints(config)
const REDIRECT_URI = 'http://localhost:3000/'

afterEach(() => {
  vi.useRealTimers()
})

function echoServing(options: EchoHandlersOptions = {}) {
  const echo = echoHandlers({ ...config, ...options })
  server.use(...echo)
  return echo
}

const tokenGrant = (fields: Record<string, string>) =>
  fetch(urls.token, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })

/** What the app does before leaving for Echo, and what Echo's authorize page sends back: a code for this verifier. */
async function authorized({ clientId = config.appId } = {}) {
  const verifier = `verifier-${crypto.randomUUID()}-${crypto.randomUUID()}`
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)))
  const challenge = btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 's1',
  })
  const back = await fetch(`${urls.authorize}?${query}`, { redirect: 'manual' })
  const code = new URL(back.headers.get('location')!).searchParams.get('code')!
  return { code, verifier }
}

const exchange = ({ code, verifier }: { code: string; verifier: string }, overrides: Record<string, string> = {}) =>
  tokenGrant({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: config.appId,
    redirect_uri: REDIRECT_URI,
    ...overrides,
  })

const refresh = (refreshToken: string) =>
  tokenGrant({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: config.appId })

const balanceWith = (accessToken: string) =>
  fetch(urls.balance, { headers: { Authorization: `Bearer ${accessToken}` } })

const INVALID_CODE = { error: 'invalid_request', error_description: 'Invalid authorization code' }
const INVALID_REFRESH_TOKEN = { error: 'invalid_request', error_description: 'Invalid refresh token' }

describe('echoHandlers: the code exchange', () => {
  it('takes a code once, from the client and redirect URI it was issued to, with the PKCE verifier of its challenge', async () => {
    echoServing()
    const granted = await authorized()
    const first = await exchange(granted)
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({
      access_token: echoFixtures.tokens.issued(1).accessToken,
      refresh_token: echoFixtures.tokens.issued(1).refreshToken,
      expires_in: 900,
    })
    const again = await exchange(granted)
    expect([again.status, await again.json()]).toEqual([400, INVALID_CODE])
  })

  it.each([
    ['another client', { client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53' }],
    ['another redirect URI', { redirect_uri: 'http://localhost:4000/' }],
    ["a verifier that is not the challenge's", { code_verifier: 'guessed' }],
    ['a forged code', { code: 'forged' }],
  ])('refuses %s with 400 invalid_request, as Echo does', async (_case, overrides) => {
    echoServing()
    const refused = await exchange(await authorized(), overrides)
    expect([refused.status, await refused.json()]).toEqual([400, INVALID_CODE])
  })
})

describe("echoHandlers: refresh tokens rotate, as Echo's do", () => {
  it("the seeded session's refresh token is the one taken at start", async () => {
    echoServing()
    const renewed = await refresh(echoFixtures.tokens.seeded.refreshToken)
    expect(await renewed.json()).toMatchObject({
      access_token: echoFixtures.tokens.issued(1).accessToken,
      refresh_token: echoFixtures.tokens.issued(1).refreshToken,
    })
  })

  it('each refresh token is taken once: used again, it is refused with 400 invalid_request "Invalid refresh token"', async () => {
    echoServing()
    const seeded = echoFixtures.tokens.seeded.refreshToken
    expect((await refresh(seeded)).status).toBe(200)
    const reused = await refresh(seeded)
    expect([reused.status, await reused.json()]).toEqual([400, INVALID_REFRESH_TOKEN])
    expect((await refresh(echoFixtures.tokens.issued(1).refreshToken)).status).toBe(200)
  })

  it('a sign-in replaces the refresh token taken until then; one Echo never issued is refused', async () => {
    echoServing()
    expect((await exchange(await authorized())).status).toBe(200)
    expect((await refresh(echoFixtures.tokens.seeded.refreshToken)).status).toBe(400)
    expect((await refresh('made-up')).status).toBe(400)
    expect((await refresh(echoFixtures.tokens.issued(1).refreshToken)).status).toBe(200)
  })

  it('refuseRefresh refuses the live one too', async () => {
    echoServing({ refuseRefresh: true })
    const refused = await refresh(echoFixtures.tokens.seeded.refreshToken)
    expect([refused.status, await refused.json()]).toEqual([400, INVALID_REFRESH_TOKEN])
  })
})

describe('echoHandlers: access tokens expire', () => {
  it('one it issued is taken until its expiresInSeconds have passed by Date.now() (fake timers count), then answered 401', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    echoServing({ expiresInSeconds: 15 })
    const issued = (await (await refresh(echoFixtures.tokens.seeded.refreshToken)).json()) as {
      access_token: string
      expires_in: number
    }
    expect(issued.expires_in).toBe(15)
    vi.setSystemTime(Date.now() + 14_999)
    expect((await balanceWith(issued.access_token)).status).toBe(200)
    vi.setSystemTime(Date.now() + 1)
    const expired = await balanceWith(issued.access_token)
    expect([expired.status, await expired.json()]).toEqual([401, { message: 'Unauthorized' }])
  })

  it('lives 900 seconds by default', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    echoServing()
    const issued = (await (await refresh(echoFixtures.tokens.seeded.refreshToken)).json()) as {
      access_token: string
      expires_in: number
    }
    expect(issued.expires_in).toBe(900)
    vi.setSystemTime(Date.now() + 899_000)
    expect((await balanceWith(issued.access_token)).status).toBe(200)
    vi.setSystemTime(Date.now() + 1_000)
    expect((await balanceWith(issued.access_token)).status).toBe(401)
  })

  it('the seeded access token, whose expiry only the stored session knows, is taken until refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    echoServing({ expiresInSeconds: 15 })
    vi.setSystemTime(Date.now() + 3_600_000)
    expect((await balanceWith(echoFixtures.tokens.seeded.accessToken)).status).toBe(200)
  })
})
