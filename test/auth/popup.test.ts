// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'

import { HANDOVER_WAIT_MS, POPUP_TIMEOUT_MS } from '../../src/auth/popup'
import type { EchoEnvironment, PopupWindow } from '../../src/auth/environment'
import { getEchoRouter, signIn, signOut, type EchoConfig, type EchoStore } from 'echo-rtk'
import { CONFIG, echoStoresPerTest, sessionOf } from '../support/echoStores'
import { APP_ID, APP_URL, codeExchanges, ECHO, refreshGrants, sentTo, serveEcho } from '../support/testEcho'

const { newStore, navigations } = echoStoresPerTest()
const auth = (store: EchoStore) => store.getState().echo.auth
const storedUserKey = `oidc.user:${ECHO}:${APP_ID}`

type MessageListener = Parameters<EchoEnvironment['onMessage']>[0]
interface Delivery {
  origin?: string
  source?: object
}

/** The sign-in window the opener gets from `window.open`: where it was sent, and what it was told. */
class FakePopup implements PopupWindow {
  closed = false
  focused = 0
  readonly sentTo: string[] = []
  /** The returning page's listeners: what the opener posts to this window reaches them. */
  readonly pageListeners: MessageListener[] = []
  location = { replace: (url: string) => void this.sentTo.push(url) }
  focus() {
    this.focused += 1
  }
  close() {
    this.closed = true
  }
  postMessage(data: unknown, origin: string) {
    for (const listener of this.pageListeners) listener({ origin, source: null, data })
  }
}

/**
 * An opening page and its sign-in window, wired as a browser wires them: the opener's `message`
 * listeners hear what the window's page posts to its opener, coming from that window.
 */
function windows() {
  const popup = new FakePopup()
  const openerListeners: MessageListener[] = []
  const openWindow = vi.fn((): PopupWindow | null => popup)
  const opener: Partial<EchoEnvironment> = {
    openWindow,
    onMessage: (listener) => {
      openerListeners.push(listener)
      return () => openerListeners.splice(openerListeners.indexOf(listener), 1)
    },
  }
  /** The opener hears `data` as the browser would deliver it, from `source` at `origin`. */
  const deliverToOpener = (data: unknown, { origin = APP_URL, source = popup }: Delivery = {}) => {
    for (const listener of [...openerListeners]) listener({ origin, source, data })
  }
  const closeWindow = vi.fn()
  /** The page the window comes back to at `href`: the app's own page, in the popup. */
  const popupPage = (href: string, overrides: Partial<EchoEnvironment> = {}, config?: EchoConfig) =>
    newStore(
      {
        location: { href },
        history: { state: null, replaceState: () => undefined },
        onMessage: (listener) => {
          popup.pageListeners.push(listener)
          return () => popup.pageListeners.splice(popup.pageListeners.indexOf(listener), 1)
        },
        postToOpener: (data, origin) => deliverToOpener(data, { origin }),
        closeWindow,
        ...overrides,
      },
      config,
    )
  return { popup, opener, openWindow, deliverToOpener, popupPage, closeWindow }
}

/** What Echo's authorize page does for a user who consents: the address it sends the window back to. */
async function consentAt(authorizeUrl: string): Promise<string> {
  const answer = await fetch(authorizeUrl, { redirect: 'manual' })
  return answer.headers.get('location')!
}

/** The sign-in window, once sent to Echo: where it went. */
async function sentToEcho(popup: FakePopup): Promise<string> {
  await vi.waitFor(() => expect(popup.sentTo).toHaveLength(1))
  return popup.sentTo[0]!
}

/** `setTimeout` that holds back the timers of `ms` for the test to run, and runs every other as usual. */
function heldTimers(ms: number) {
  const held: (() => void)[] = []
  const setTimeout = (run: () => void, delay: number) =>
    delay === ms ? held.push(run) : globalThis.setTimeout(run, delay)
  const clearTimeout = (handle: unknown) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>)
  return { held, overrides: { setTimeout, clearTimeout } }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('sign-in in a popup window', () => {
  it('opens the window inside the call, keeps the page, and makes the one code exchange in the opener', async () => {
    const echo = serveEcho()
    const { popup, opener, openWindow, popupPage, closeWindow } = windows()
    const store = newStore(opener)
    const signingIn = store.dispatch(signIn({ popup: true }))
    // Before anything was awaited: a window opened later than the click is blocked.
    expect(openWindow).toHaveBeenCalledOnce()
    // The page behind shows what it showed (signed out), and knows a sign-in is under way.
    expect(auth(store)).toMatchObject({ status: 'unauthenticated', isSigningIn: true })

    const authorize = new URL(await sentToEcho(popup))
    expect(authorize.origin + authorize.pathname).toBe(`${ECHO}/api/oauth/authorize`)
    expect(authorize.searchParams.get('redirect_uri')).toBe(APP_URL)
    const returned = popupPage(await consentAt(authorize.href))
    await signingIn

    expect(auth(store)).toMatchObject({
      status: 'authenticated',
      user: { name: 'Ada Lovelace' },
      arrivedBy: 'callback',
    })
    expect(navigations).toEqual([])
    expect(codeExchanges(echo)).toHaveLength(1)
    await sessionOf(returned).signInCallback
    expect(closeWindow).toHaveBeenCalledOnce()
    // The returning page showed nothing and ran no session of its own.
    expect(sessionOf(returned).isHandingOver).toBe(true)
    expect(auth(returned).status).toBe('loading')
  })

  it('the window closed by the user: rejects saying so, back to signed out with nothing stored and no error shown', async () => {
    serveEcho()
    const { popup, opener } = windows()
    const store = newStore(opener)
    const signingIn = store.dispatch(signIn({ popup: true }))
    await sentToEcho(popup)
    popup.closed = true

    await expect(signingIn).rejects.toMatchObject({
      name: 'EchoError',
      reason: 'popup-closed',
      message: 'The sign-in window was closed before signing in',
    })
    expect(auth(store)).toMatchObject({ status: 'unauthenticated', isSigningIn: false, user: null, error: null })
    expect(window.localStorage.getItem(storedUserKey)).toBeNull()
  })

  it('no answer in time: the window is closed and the sign-in rejects, as when the user closes it', async () => {
    serveEcho()
    const { popup, opener } = windows()
    const timers = heldTimers(POPUP_TIMEOUT_MS)
    const store = newStore({ ...opener, ...timers.overrides })
    const signingIn = store.dispatch(signIn({ popup: true }))
    await sentToEcho(popup)
    expect(timers.held).toHaveLength(1)
    timers.held[0]!()

    await expect(signingIn).rejects.toMatchObject({ reason: 'popup-timeout' })
    expect(popup.closed).toBe(true)
    expect(auth(store)).toMatchObject({ status: 'unauthenticated', error: { reason: 'popup-timeout' } })
  })

  it('blocked by the browser: leaves for Echo in this tab instead, carrying returnTo', async () => {
    serveEcho()
    const { opener, openWindow } = windows()
    openWindow.mockReturnValue(null)
    const store = newStore(opener)
    await store.dispatch(signIn({ popup: true, returnTo: { draft: 'What is a monad?' } }))
    expect(navigations).toHaveLength(1)
    expect(new URL(navigations[0]!).pathname).toBe('/api/oauth/authorize')

    window.history.replaceState(null, '', await consentAt(navigations[0]!))
    const back = newStore()
    await sessionOf(back).signInCallback
    expect(auth(back)).toMatchObject({ status: 'authenticated', returnTo: { draft: 'What is a monad?' } })
  })

  it("blocked, with popup: 'only': rejects with what to do, and leaves nowhere", async () => {
    serveEcho()
    const { opener, openWindow } = windows()
    openWindow.mockReturnValue(null)
    const store = newStore(opener)
    await expect(store.dispatch(signIn({ popup: 'only' }))).rejects.toMatchObject({
      reason: 'popup-blocked',
      message: expect.stringContaining('allow pop-ups for this site') as string,
    })
    expect(navigations).toEqual([])
    expect(auth(store)).toMatchObject({ status: 'unauthenticated', error: { reason: 'popup-blocked' } })
  })

  it('two sign-ins at once: one window, focused again, and both resolve with the one sign-in', async () => {
    const echo = serveEcho()
    const { popup, opener, openWindow, popupPage } = windows()
    const store = newStore(opener)
    const first = store.dispatch(signIn({ popup: true }))
    const second = store.dispatch(signIn({ popup: true }))
    expect(openWindow).toHaveBeenCalledOnce()
    expect(popup.focused).toBe(1)

    popupPage(await consentAt(await sentToEcho(popup)))
    await Promise.all([first, second])
    expect(codeExchanges(echo)).toHaveLength(1)
  })

  it('takes no answer from another origin, another window or another sign-in', async () => {
    const echo = serveEcho()
    const { popup, opener, deliverToOpener, popupPage } = windows()
    const store = newStore(opener)
    const signingIn = store.dispatch(signIn({ popup: true }))
    const back = await consentAt(await sentToEcho(popup))
    const state = new URL(back).searchParams.get('state')!
    const answer = { type: 'echo-rtk/sign-in-return', appId: APP_ID, state, href: back }

    deliverToOpener(answer, { origin: 'https://evil.test' })
    deliverToOpener(answer, { source: {} })
    deliverToOpener({ ...answer, state: 'another-state' })
    deliverToOpener({ ...answer, appId: '60601628-cdb7-481e-8f7e-921981220348' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(auth(store)).toMatchObject({ status: 'unauthenticated', isSigningIn: true })
    expect(codeExchanges(echo)).toHaveLength(0)

    popupPage(back)
    await signingIn
    expect(codeExchanges(echo)).toHaveLength(1)
  })

  it("a config that signs in in a window (signIn: 'popup') opens one for a plain signIn()", async () => {
    serveEcho()
    const { popup, opener, openWindow } = windows()
    const store = newStore(opener, { ...CONFIG, signIn: 'popup' })
    void store.dispatch(signIn()).catch(() => undefined)
    expect(openWindow).toHaveBeenCalledOnce()
    await sentToEcho(popup)
    expect(navigations).toEqual([])
  })

  it('closed before it was sent to Echo: rejects saying so, and the closed window is sent nowhere', async () => {
    serveEcho()
    const { popup, opener } = windows()
    const store = newStore(opener)
    const signingIn = store.dispatch(signIn({ popup: true }))
    popup.closed = true
    await expect(signingIn).rejects.toMatchObject({ reason: 'popup-closed' })
    expect(popup.sentTo).toEqual([])
  })

  it('closed by the user, then signed in again: a new window opens rather than the closed one focused', async () => {
    serveEcho()
    const { popup, opener, openWindow } = windows()
    const store = newStore(opener)
    const first = store.dispatch(signIn({ popup: true }))
    await sentToEcho(popup)
    popup.closed = true
    await expect(first).rejects.toMatchObject({ reason: 'popup-closed' })
    popup.closed = false
    void store.dispatch(signIn({ popup: true })).catch(() => undefined)
    expect(openWindow).toHaveBeenCalledTimes(2)
    expect(popup.focused).toBe(0)
  })

  it('a signed-in user who opens the sign-in window and closes it stays signed in, with no error', async () => {
    serveEcho()
    const { popup, opener, popupPage } = windows()
    const signedIn = newStore(opener)
    const first = signedIn.dispatch(signIn({ popup: true }))
    popupPage(await consentAt(await sentToEcho(popup)))
    await first
    popup.closed = false
    popup.sentTo.length = 0
    const again = signedIn.dispatch(signIn({ popup: true }))
    await sentToEcho(popup)
    popup.closed = true
    await expect(again).resolves.toBeUndefined()
    expect(auth(signedIn)).toMatchObject({ status: 'authenticated', error: null })
  })

  it('the user already signed in, signing in again in a window with returnTo: the app gets its returnTo', async () => {
    serveEcho()
    const { popup, opener, popupPage } = windows()
    const store = newStore(opener)
    const first = store.dispatch(signIn({ popup: true }))
    popupPage(await consentAt(await sentToEcho(popup)))
    await first
    popup.closed = false
    popup.sentTo.length = 0
    const again = store.dispatch(signIn({ popup: true, returnTo: { draft: 'Hello again' } }))
    popupPage(await consentAt(await sentToEcho(popup)))
    await again
    expect(auth(store)).toMatchObject({ status: 'authenticated', returnTo: { draft: 'Hello again' } })
  })

  it('Echo refusing in the window: rejects with its reason, shown, and nothing stored', async () => {
    serveEcho()
    const { popup, opener, popupPage } = windows()
    const store = newStore(opener)
    const signingIn = store.dispatch(signIn({ popup: true }))
    const state = new URL(await sentToEcho(popup)).searchParams.get('state')!
    popupPage(`${APP_URL}/?error=access_denied&error_description=The+user+declined&state=${state}`)

    await expect(signingIn).rejects.toMatchObject({ reason: 'sign-in-refused' })
    expect(auth(store)).toMatchObject({
      status: 'unauthenticated',
      error: { message: expect.stringContaining('Sign-in was refused: The user declined (access_denied)') as string },
    })
    expect(window.localStorage.getItem(storedUserKey)).toBeNull()
  })

  it('the returning page runs no session while it hands over: a stored user there is not renewed', async () => {
    const echo = serveEcho()
    const { popup, opener, popupPage } = windows()
    const store = newStore(opener)
    const signingIn = store.dispatch(signIn({ popup: true }))
    const back = await consentAt(await sentToEcho(popup))
    // An expired user in storage: a session starting on this page would renew it at once.
    const expired = { access_token: 'old', refresh_token: 'old-refresh', token_type: 'Bearer', profile: { sub: 'u' } }
    window.localStorage.setItem(storedUserKey, JSON.stringify({ ...expired, expires_at: 1 }))
    const returned = popupPage(back)
    await signingIn
    await sessionOf(returned).signInCallback
    expect(refreshGrants(echo)).toHaveLength(0)
    expect(auth(returned).status).toBe('loading')
  })

  it('the opener gone: the returning page completes the sign-in itself, once', async () => {
    const echo = serveEcho()
    const { popup, opener, popupPage, closeWindow } = windows()
    const store = newStore(opener)
    const signingIn = store.dispatch(signIn({ popup: true })).catch(() => undefined)
    const back = await consentAt(await sentToEcho(popup))
    const timers = heldTimers(HANDOVER_WAIT_MS)
    const returned = popupPage(back, { postToOpener: () => undefined, ...timers.overrides })
    await vi.waitFor(() => expect(timers.held).toHaveLength(1))
    timers.held[0]!()

    await sessionOf(returned).signInCallback
    expect(auth(returned)).toMatchObject({ status: 'authenticated', user: { name: 'Ada Lovelace' } })
    expect(closeWindow).not.toHaveBeenCalled()
    expect(codeExchanges(echo)).toHaveLength(1)
    popup.closed = true
    await signingIn
  })
})

describe('returnTo', () => {
  it('comes back with the sign-in that carried it, and is gone after a sign-out', async () => {
    serveEcho()
    await newStore().dispatch(signIn({ returnTo: { draft: 'Hello', scroll: 420, tags: ['a'] } }))
    window.history.replaceState(null, '', await consentAt(navigations[0]!))
    const store = newStore()
    await sessionOf(store).signInCallback
    expect(auth(store).returnTo).toEqual({ draft: 'Hello', scroll: 420, tags: ['a'] })
    await store.dispatch(signOut())
    expect(auth(store).returnTo).toBeNull()
  })

  it('refuses what would not come back as it went, or too much, before leaving', async () => {
    const store = newStore()
    await expect(store.dispatch(signIn({ returnTo: new Date() as never }))).rejects.toMatchObject({
      code: 'UNKNOWN_ERROR',
      reason: 'bad-argument',
      action: 'starting sign-in',
      message: expect.stringContaining("signIn's returnTo must be plain JSON") as string,
    })
    await expect(store.dispatch(signIn({ returnTo: 'x'.repeat(3_000) }))).rejects.toMatchObject({
      reason: 'bad-argument',
      message: expect.stringContaining('over 2000') as string,
    })
    expect(navigations).toEqual([])
    expect(auth(store).status).toBe('unauthenticated')
  })
})

describe('sign-in on demand', () => {
  const onDemand: EchoConfig = { ...CONFIG, signInOnDemand: true }
  const ask = (store: EchoStore) =>
    store.dispatch(getEchoRouter()).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
    })

  it('a billed call made signed out opens the sign-in window, and is sent once the user has signed in', async () => {
    const echo = serveEcho()
    const { popup, opener, openWindow, popupPage } = windows()
    const store = newStore(opener, onDemand)
    const answer = ask(store)
    expect(openWindow).toHaveBeenCalledOnce()

    popupPage(await consentAt(await sentToEcho(popup)))
    expect((await answer).choices[0]?.message.content).toEqual(expect.any(String))
    const chats = sentTo(echo, '/chat/completions')
    expect(chats).toHaveLength(1)
    expect(chats[0]!.token).toBe(auth(store).accessToken)
  })

  it('the window closed: the call rejects with its reason, and nothing is sent', async () => {
    const echo = serveEcho()
    const { popup, opener } = windows()
    const store = newStore(opener, onDemand)
    const answer = ask(store)
    await sentToEcho(popup)
    popup.closed = true
    await expect(answer).rejects.toMatchObject({ reason: 'popup-closed' })
    expect(sentTo(echo, '/chat/completions')).toHaveLength(0)
  })

  it('off by default: the call rejects Not authenticated and opens nothing', async () => {
    serveEcho()
    const { opener, openWindow } = windows()
    const store = newStore(opener)
    await expect(ask(store)).rejects.toMatchObject({ reason: 'not-authenticated' })
    expect(openWindow).not.toHaveBeenCalled()
  })
})
