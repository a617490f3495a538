// Why each thing the session tells its store happened: plain data, carried in each action's
// `meta.cause`, so Redux DevTools' action list reads as the session's story (docs/session.md,
// "Reading the session in Redux DevTools"). Never a token, a code or a verifier. Why a refresh
// started is `RefreshCause`, beside the token provider that is asked for one.
import type { RefreshCause } from '../api/tokenProvider'

export type { RefreshCause }

/**
 * Why a refresh could not reach Echo: the user stays signed in and the session tries again.
 *
 * @inline
 */
export type InterruptionCause =
  /** The request got no answer: the browser is offline, or the connection dropped. */
  | { by: 'offline'; detail: string }
  /** Echo answered that it cannot answer now (a 5xx, 408, 425 or 429). */
  | { by: 'status'; status: number }
  /** What answered is not Echo (a captive portal's page, say). */
  | { by: 'not-echo'; status: number }
  /** No answer within the attempt's 10 seconds. */
  | { by: 'deadline' }
  /** The attempt waited its 10 seconds behind another tab's refresh. */
  | { by: 'turn' }
  /** Something broke in the attempt (storage refusing a write, say). */
  | { by: 'error'; message: string }

/**
 * Where new tokens came from.
 *
 * @inline
 */
export type TokensCause =
  /** Echo's answer to this tab's refresh. */
  | { by: 'echo' }
  /** Another tab's refresh: stored, or handed over on the tabs' channel. */
  | { by: 'tab' }
  /** Read from storage when the page loaded (a sign-in: `signedIn` says it in `arrivedBy`). */
  | { by: 'storage' }

/**
 * Why nobody is signed in now.
 *
 * @inline
 */
export type SignOutCause =
  /** The user signed out (`signOut()`). */
  | { by: 'user' }
  /** Echo refused the refresh token: `error` is Echo's OAuth error code (`invalid_grant`), else the status. */
  | { by: 'echo'; error: string }
  /** Echo answered the refresh with no access token. */
  | { by: 'no-access-token' }
  /** The refresh token's own life was over, or there was none: nothing to renew with. */
  | { by: 'refresh-token-expired' }
  | { by: 'no-refresh-token' }
  /** Another tab signed out. */
  | { by: 'tab' }
  /** Another tab's refresh was refused: the session ended there, and so here. */
  | { by: 'tab-ended' }
  /** The site's storage was cleared (the browser's settings, or the developer tools). */
  | { by: 'storage-cleared' }
  /** The page loaded with nobody stored. */
  | { by: 'nothing-stored' }
  /** The sign-in window was closed before the user signed in. */
  | { by: 'window-closed' }

/** Any cause, as the actions carry it in `meta.cause`. */
export type SessionCause = RefreshCause | InterruptionCause | TokensCause | SignOutCause
