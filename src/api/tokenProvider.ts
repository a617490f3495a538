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
  /** Gets a new access token; resolves to it, or to nothing when `getAccessToken()` now has it. */
  refreshToken(): Promise<string | void>
  /** Called once per failed refresh, with the reason; every request waiting on it then fails with `HTTP_401`. */
  onRefreshError?(error: Error): void
}

/** A `fetch`-compatible function: the shape `createEchoFetch` takes and returns. */
export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
