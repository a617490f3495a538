import { afterEach, vi } from 'vitest'

import type { EchoSession } from '../../src/auth/EchoSession'
import type { EchoEnvironment } from '../../src/auth/environment'
import { runtimeOf } from '../../src/store/EchoRuntime'
import { createEchoStore, signIn, stopEchoSession, type EchoConfig, type EchoStore } from '../../src/index'
import { APP_ID, APP_URL, backFromEcho, ECHO } from './testEcho'

export const CONFIG: EchoConfig = { appId: APP_ID, apiUrl: ECHO, redirectUri: APP_URL }

/** The session a store's middleware holds. */
export const sessionOf = (store: EchoStore): EchoSession => runtimeOf(store.dispatch).session as EchoSession

/** A Web Locks stand-in shared by the "tabs" of one test: one holder per name at a time. */
export function fakeLocks(): NonNullable<EchoEnvironment['locks']> {
  const tails = new Map<string, Promise<unknown>>()
  const request = (name: string, _options: LockOptions, work: LockGrantedCallback<unknown>) => {
    const run = (tails.get(name) ?? Promise.resolve()).then(() => work({ name, mode: 'exclusive' }))
    tails.set(
      name,
      run.catch(() => undefined),
    )
    return run
  }
  return { request } as NonNullable<EchoEnvironment['locks']>
}

/**
 * Stores for one test file: each is stopped, and the page (address bar, localStorage) reset,
 * after every test. `navigations` collects the pages a store tried to leave for.
 */
export function echoStoresPerTest() {
  const stores: EchoStore[] = []
  const navigations: string[] = []
  afterEach(() => {
    for (const store of stores.splice(0)) store.dispatch(stopEchoSession())
    navigations.length = 0
    window.localStorage.clear()
    window.history.replaceState(null, '', '/')
  })
  const newStore = (environment: Partial<EchoEnvironment> = {}, config: EchoConfig = CONFIG) => {
    const store = createEchoStore({
      config,
      environment: {
        navigate: (url) => navigations.push(url),
        locks: undefined,
        openChannel: undefined,
        ...environment,
      },
    })
    stores.push(store)
    return store
  }
  /** Signs in the whole way at the served Echo: redirect to Echo, consent, back with a code, a fresh page load completes it. */
  const signInThroughEcho = async (environment: Partial<EchoEnvironment> = {}, config: EchoConfig = CONFIG) => {
    await newStore(environment, config).dispatch(signIn())
    await backFromEcho(navigations.at(-1)!)
    const store = newStore(environment, config)
    await sessionOf(store).signInCallback
    // Signed in, the balance loads by itself: let it land before the test moves the clock.
    await vi.waitFor(() => {
      if (store.getState().echo.balance.status !== 'succeeded') throw new Error('the balance has not loaded yet')
    })
    return store
  }
  return { newStore, navigations, signInThroughEcho }
}

/** Work a store queued for after the page's paint (the balance calls after a sign-in): the test says when it runs. */
export function paintQueue() {
  const queued: (() => void)[] = []
  return {
    afterPaint: (run: () => void) => void queued.push(run),
    paint: () => {
      for (const run of queued.splice(0)) run()
    },
  }
}
