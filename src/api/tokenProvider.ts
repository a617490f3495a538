import { EchoError } from '../errors'

/**
 * Where the authorized fetch gets its bearer token, and how it gets a new one after a 401.
 *
 * @example
 * const tokenProvider: TokenProvider = {
 *   getAccessToken: async () => session.accessToken,
 *   refreshToken: async () => session.refresh(), // resolves to the new token, or to nothing
 *   onRefreshError: () => session.signOut(),
 * }
 */
export interface TokenProvider {
  /** The current access token, or `null` when nobody is signed in. */
  getAccessToken(): Promise<string | null>
  /**
   * Gets a new access token; resolves to it, or to nothing when `getAccessToken()` now has it.
   * Rejecting with an `EchoError` of code `NETWORK_ERROR` says the server could not be reached:
   * the calls waiting on this refresh reject with it, and the next call tries again.
   */
  refreshToken(cause?: RefreshCause): Promise<string | void>
  /**
   * Called once per failed refresh, with the reason; every request waiting on it then fails (`HTTP_401`, or
   * `NETWORK_ERROR` as above).
   */
  onRefreshError?(error: Error): void
}

/**
 * Why a refresh of the access token was asked for: a token provider's `refreshToken(cause)` gets it, and
 * echo-rtk's session shows it in Redux DevTools (`meta.cause` of `tokenRefreshStarted`).
 */
export type RefreshCause =
  /** The token's renew time came (a third of its life, at most a minute, before it expires). */
  | { by: 'renew-timer' }
  /** Echo could not be reached before: the backoff's next try (`attempt` 2 is the first try again). */
  | { by: 'retry'; attempt: number }
  /**
   * A request was answered 401: `request` is its method and address, without the query
   * (`GET https://…/api/v1/balance`).
   */
  | { by: 'unauthorized'; request: string }
  /** `getToken()` found the token expired. */
  | { by: 'expired-token' }
  /** The browser came back online, or the page was shown again, while Echo could not be reached. */
  | { by: 'online' }
  | { by: 'visible' }
  /** The stored user's token had expired when the page loaded. */
  | { by: 'start-up' }
  /** The app asked for it (a token provider's `refreshToken()` called with no cause). */
  | { by: 'app' }
  /** A moment played from Redux DevTools in development (`echoDevMoments.actOffline`). */
  | { by: 'dev-moment' }

/** A `fetch`-compatible function: the shape `createEchoFetch` takes and returns. */
export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/**
 * `value` as a token provider, checked where a caller hands one in: `caller` names the door in the
 * message, so a missing or half-built provider fails there, before anything is sent.
 * @internal
 */
export function requireTokenProvider(value: unknown, caller: string): TokenProvider {
  const provider = value as Partial<TokenProvider> | null | undefined
  if (typeof provider?.getAccessToken !== 'function' || typeof provider.refreshToken !== 'function') {
    throw new EchoError({
      code: 'UNKNOWN_ERROR',
      reason: 'misconfigured',
      message:
        `${caller} needs a tokenProvider with getAccessToken() and refreshToken() (got ` +
        `${provider === null || typeof provider !== 'object' ? String(provider) : 'an object without them'})`,
    })
  }
  return provider as TokenProvider
}
