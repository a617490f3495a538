// @vitest-environment jsdom
// The moments an app must handle, played on demand in development (echoDevMoments): each takes the
// path the real fault takes, on the real session and money, against the served Echo.
import { afterEach, describe, expect, it, vi } from 'vitest'

import { echoDevMoments, echoDevToolsOptions, getEchoRouter, signOut, stopEchoSession, type EchoStore } from 'echo-rtk'
import { selectCredit } from '../../../src/store/selectors'
import { echoStoresPerTest } from '../../support/echoStores'
import { refreshGrants, sentTo, serveEcho } from '../../support/testEcho'

const { signInThroughEcho, newStore } = echoStoresPerTest()
const auth = (store: EchoStore) => store.getState().echo.auth
const ask = (store: EchoStore) =>
  store.dispatch(getEchoRouter()).chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Hi' }],
  })
const refetchBalance = (store: EchoStore) => store.dispatch({ type: 'echoApi/invalidateTags', payload: ['Balance'] })

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe('moments played on demand, in development', () => {
  it('Redux DevTools lists the six in its dispatcher (echoDevToolsOptions.actionCreators)', () => {
    expect(Object.keys(echoDevToolsOptions.actionCreators ?? {})).toEqual([
      'expireAccessToken',
      'endSessionAtNextRefresh',
      'answerNextBilledCallWith402',
      'actOffline',
      'showLowBalance',
      'playTopUpArriving',
    ])
  })

  it('an expired access token: the next call meets a 401, the one refresh, and goes through with the new token', async () => {
    const echo = serveEcho()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const store = await signInThroughEcho()
    const before = auth(store).accessToken
    store.dispatch(echoDevMoments.expireAccessToken())
    refetchBalance(store)
    await vi.waitFor(() => expect(auth(store).accessToken).not.toBe(before))
    expect(refreshGrants(echo)).toHaveLength(1)
    const balanceCalls = sentTo(echo, '/api/v1/balance').concat(sentTo(echo, '/api/v1/balance/free'))
    expect(balanceCalls.filter((call) => call.token === 'echo-rtk-devtools-moment')).toHaveLength(1)
    expect(auth(store)).toMatchObject({ status: 'authenticated', error: null })
  })

  it('the session ended at the next refresh: Echo refuses it, and the user reads that the session has ended', async () => {
    const echo = serveEcho()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const store = await signInThroughEcho()
    store.dispatch(echoDevMoments.endSessionAtNextRefresh())
    store.dispatch(echoDevMoments.expireAccessToken())
    refetchBalance(store)
    await vi.waitFor(() => expect(auth(store).status).toBe('unauthenticated'))
    expect(auth(store).error).toMatchObject({
      reason: 'session-ended',
      message: 'Your session has ended. Sign in again.',
    })
    expect(refreshGrants(echo).map((grant) => (grant.body as { refresh_token?: string }).refresh_token)).toEqual([
      'echo-rtk-devtools-moment',
    ])
  })

  it('a 402 for the next billed call: it is refused for want of credit, the top-up offered, nothing sent', async () => {
    const echo = serveEcho()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const store = await signInThroughEcho()
    store.dispatch(echoDevMoments.answerNextBilledCallWith402())
    await expect(ask(store)).rejects.toMatchObject({ statusCode: 402 })
    expect(store.getState().echo.balance.isInsufficientFunds).toBe(true)
    expect(sentTo(echo, '/chat/completions')).toHaveLength(0)
    await expect(ask(store)).resolves.toMatchObject({ choices: [expect.anything()] })
  })

  it('offline for a second: the refresh tried at once cannot reach Echo (reconnecting), back online it renews', async () => {
    serveEcho()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const store = await signInThroughEcho()
    store.dispatch(echoDevMoments.actOffline(1))
    await vi.waitFor(() => expect(auth(store).isReconnecting).toBe(true))
    await expect(ask(store)).rejects.toMatchObject({ code: 'NETWORK_ERROR' })
    await vi.waitFor(() => expect(auth(store).isReconnecting).toBe(false), { timeout: 4_000 })
    expect(auth(store).status).toBe('authenticated')
  })

  it('a low balance: asked again, and answered at half of lowBalanceAt with no free tier left', async () => {
    serveEcho({ balance: 12.5 })
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const store = await signInThroughEcho()
    store.dispatch(echoDevMoments.showLowBalance())
    await vi.waitFor(() => expect(selectCredit(store.getState())).toBe(0.5))
  })

  it('a top-up arriving: waited for ("Payment received"), then credited with its amount', async () => {
    serveEcho({ balance: 12.5 })
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const store = await signInThroughEcho()
    store.dispatch(echoDevMoments.playTopUpArriving(10))
    expect(store.getState().echo.money.topUp).toEqual({ status: 'waiting', amount: null })
    await vi.waitFor(() => expect(store.getState().echo.money.topUp).toEqual({ status: 'credited', amount: 10 }), {
      timeout: 5_000,
    })
    expect(selectCredit(store.getState())).toBe(22.5)
  })

  it('a sign-out forgets the moments not played yet: the user signed in again meets none of them', async () => {
    const echo = serveEcho({ balance: 12.5 })
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const store = await signInThroughEcho()
    const key = Object.keys(window.localStorage).find((name) => name.startsWith('oidc.user:'))!
    const stored = window.localStorage.getItem(key)!
    store.dispatch(echoDevMoments.answerNextBilledCallWith402())
    store.dispatch(echoDevMoments.expireAccessToken())
    await store.dispatch(signOut())
    // The same user signs in again in another tab: this store takes it from storage.
    window.localStorage.setItem(key, stored)
    window.dispatchEvent(new StorageEvent('storage', { key }))
    await vi.waitFor(() => expect(auth(store).status).toBe('authenticated'))
    await expect(ask(store)).resolves.toMatchObject({ choices: [expect.anything()] })
    expect(sentTo(echo, '/chat/completions').map((call) => call.token)).toEqual([auth(store).accessToken])
    expect(refreshGrants(echo)).toEqual([])
  })

  it('a stopped store plays nothing, and says so', async () => {
    serveEcho()
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const store = await signInThroughEcho()
    store.dispatch(stopEchoSession())
    store.dispatch(echoDevMoments.actOffline(5))
    expect(warned).toHaveBeenCalledWith("echo-rtk: echo/dev/actOffline not played: the store's session is stopped")
    expect(auth(store).isReconnecting).toBe(false)
  })

  it('says in the console what it played, once per moment', async () => {
    serveEcho()
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const store = await signInThroughEcho()
    store.dispatch(echoDevMoments.answerNextBilledCallWith402())
    expect(warned).toHaveBeenCalledWith(
      'echo-rtk: playing answerNextBilledCallWith402, asked from Redux DevTools or a test (development only)',
    )
  })
})

describe('moments in a production build', () => {
  it('play nothing, and say so once per store', () => {
    const echo = serveEcho()
    vi.stubEnv('NODE_ENV', 'production')
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const store = newStore()
    store.dispatch(echoDevMoments.answerNextBilledCallWith402())
    store.dispatch(echoDevMoments.actOffline(60))
    newStore().dispatch(echoDevMoments.showLowBalance())
    expect(warned.mock.calls).toEqual([
      ['echo-rtk: echo/dev/answerNextBilledCallWith402 plays only in development builds'],
      ['echo-rtk: echo/dev/showLowBalance plays only in development builds'],
    ])
    expect(echo.requests).toEqual([])
    expect(auth(store).isReconnecting).toBe(false)
  })
})
