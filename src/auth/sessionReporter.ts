import type { EchoErrorData } from '../errors'
import type { EchoUser } from './echoUser'

/** How a sign-in reached this page: back from Echo (`callback`), restored from `storage`, or from another `tab`. */
export type SignInSource = 'callback' | 'storage' | 'tab'

/** What the store is told when someone is signed in. */
export interface SessionSnapshot {
  user: EchoUser
  accessToken: string
  /** Epoch milliseconds. */
  expiresAt: number
  arrivedBy: SignInSource
}

/** How the session tells its store what happened; the store's middleware turns these into actions. */
export interface SessionReporter {
  signInStarted(): void
  signedIn(snapshot: SessionSnapshot): void
  signInFailed(error: EchoErrorData, arrivedBy?: SignInSource): void
  tokenRefreshStarted(): void
  tokenRefreshed(token: { accessToken: string; expiresAt: number }): void
  /** A refresh could not reach Echo: the user stays signed in while the session tries again. */
  tokenRefreshInterrupted(): void
  /** `ended` when the session ended on its own (its refresh failed), not by the user's choice. */
  signedOut(ended?: EchoErrorData): void
  /** Credits were bought (in this tab or another): the balance is stale. */
  balanceChanged(): void
}

/** Options of a sign-in. */
export interface SignInOptions {
  /** Leaves for Echo's sign-in page at `url` instead of `window.location.assign(url)`. */
  navigate?: ((url: string) => void) | undefined
}

/** What the store is told when a session ends on its own: its refresh failed (SPEC §4 signs the user out). */
export const SESSION_ENDED: EchoErrorData = { code: 'UNKNOWN_ERROR', reason: 'session-ended', message: 'Your session has ended. Sign in again.' }

/** Why calls that waited on a refresh that could not reach Echo fail (`NETWORK_ERROR`): the session is still on. */
export const RECONNECTING = 'Echo could not be reached to renew the session (it will try again)'

/** Why a refresh that outlived its user (a sign-out, another user signed in) is thrown away. */
export const REFRESH_OUTLIVED = 'The session ended while its token was being refreshed'
