import type { UserInfoClaims } from '../auth/echoUser'
import { storedUserKey } from '../auth/storedUser'
import { DEFAULT_API_URL, httpUrl, type EchoConfig } from '../config'
import { echoFixtures } from './fixtures'

/**
 * Options of {@link seedEchoSession}: your provider's config (pass it whole: `appId` and `apiUrl`
 * are what count), and the user to store.
 */
export interface SeedEchoSessionOptions extends EchoConfig {
  /** The claims the stored user was signed in with. Defaults to `echoFixtures.userinfo`. */
  userinfo?: UserInfoClaims
  /** Defaults to `echoFixtures.tokens.seeded.accessToken`. */
  accessToken?: string
  /**
   * Defaults to `echoFixtures.tokens.seeded.refreshToken`: the one `echoHandlers` takes at start (it takes no other
   * it did not issue).
   */
  refreshToken?: string
  /** Defaults to 900. */
  expiresInSeconds?: number
  /** Defaults to `window.localStorage`. */
  storage?: Storage
}

/**
 * Stores a signed-in user the way the session does after a sign-in, so that an `<EchoProvider>`
 * with the same `appId` and `apiUrl` starts `authenticated`, with no request. Pair it with
 * {@link clearEchoSession} after each test.
 *
 * @example
 * seedEchoSession(config)
 * render(<EchoProvider config={config}><App /></EchoProvider>)
 */
export function seedEchoSession({
  appId,
  apiUrl = DEFAULT_API_URL,
  userinfo = echoFixtures.userinfo,
  accessToken = echoFixtures.tokens.seeded.accessToken,
  refreshToken = echoFixtures.tokens.seeded.refreshToken,
  expiresInSeconds = 900,
  storage = window.localStorage,
}: SeedEchoSessionOptions): void {
  storage.setItem(
    storedUserKey({ appId, apiUrl: httpUrl('apiUrl', apiUrl) }),
    JSON.stringify({
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      scope: 'llm:invoke offline_access',
      profile: userinfo,
      expires_at: Math.floor(Date.now() / 1000) + expiresInSeconds,
    }),
  )
}

/**
 * Removes every session and sign-in state echo-rtk (oidc-client-ts) keeps in `storage`, so the
 * next test starts signed out. Call it after each test (`afterEach`), next to msw's `resetHandlers()`.
 *
 * @example
 * afterEach(() => clearEchoSession())
 */
export function clearEchoSession(storage: Storage = window.localStorage): void {
  const keys: string[] = []
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index)
    if (key?.startsWith('oidc.')) keys.push(key)
  }
  for (const key of keys) storage.removeItem(key)
}

/**
 * Plays a checkout that was paid, as when the checkout tab comes back: the store's session asks for
 * the balance again (after 2, 4, 8, 15 and 30 s, then every 30 s) until it rises, and
 * `useEcho().topUp` says `waiting`, then `credited` with the amount (or `late` after 2 minutes).
 * Raise the balance with `echo.set({ balance })` when the credits should arrive.
 *
 * @example
 * paidAtCheckout(store)
 * expect(await screen.findByText('Payment received, adding credits…')).toBeDefined()
 * echo.set({ balance: 17.5 })
 */
export function paidAtCheckout(store: { dispatch(action: { type: string }): unknown }): void {
  // echo-rtk's `checkoutPaid` action, written out: this entry uses no Redux.
  store.dispatch({ type: 'echo/checkoutPaid' })
}

/**
 * For a test suite whose app keeps one store for every test (a module-level `store`): forgets
 * echo-rtk's part of it, so the next test starts as in a new store: the store's session is
 * stopped and dropped (the next `<EchoProvider>` starts a new one, from storage), its auth, balance
 * and API cache are emptied, and storage is cleared as {@link clearEchoSession} does. Your own
 * slices are yours to reset; a store per test (the README's pattern) needs none of this.
 *
 * @example
 * afterEach(() => resetEchoStore(store))
 */
export function resetEchoStore(
  store: { dispatch(action: { type: string }): unknown },
  storage: Storage = window.localStorage,
): void {
  // echo-rtk's `sessionReset` action, written out: this entry uses no Redux.
  store.dispatch({ type: 'echo/resetSession' })
  clearEchoSession(storage)
}
