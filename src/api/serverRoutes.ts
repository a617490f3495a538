// What the page and the app's server agree on in server mode (`EchoConfig.session: 'server'`): the
// routes echo-rtk mounts under `serverUrl`, the query parameters a sign-in comes back with when it
// failed, the reasons an answer carries in `X-Echo-Reason`, and the channel the app's tabs share.
// Nothing here is secret: in server mode the page holds no token.

/** The routes under `serverUrl` (`/api/echo` by default). */
export const SERVER_ROUTES = {
  signIn: 'signin',
  callback: 'callback',
  session: 'session',
  signOut: 'signout',
  /** Echo's API paths follow it: `api/v1/balance`. */
  api: 'api/v1',
  /** The router's paths follow it: `router/chat/completions`. */
  router: 'router',
} as const

/** The query parameters the page reads when a sign-in it started comes back without a session. */
export const SIGN_IN_ERROR_PARAMS = { error: 'echo_sign_in_error', description: 'echo_sign_in_error_description' }

/** The reasons an answer of the app's server gives in `X-Echo-Reason`. */
export const ECHO_REASONS = {
  /** Echo refused the refresh: the session cookie is cleared on this answer; sign in again. */
  sessionEnded: 'session-ended',
  /** No session cookie: nobody is signed in. */
  notSignedIn: 'not-signed-in',
  /** Echo could not be reached to renew the session: still signed in, try again later. */
  echoUnreachable: 'echo-unreachable',
  /** Echo's router said the user is out of credits. */
  insufficientFunds: 'insufficient-funds',
  /** The request came from a page other than the app's own. */
  crossSite: 'cross-site',
} as const

/** What `GET session` answers: who is signed in (never a token), and when Echo last vouched for them. */
export interface ServerSessionAnswer {
  user: { id: string; email: string | null; name: string | null; picture: string | null } | null
  /** When Echo last issued the session's tokens, epoch ms; absent when nobody is signed in. */
  checkedAt?: number
  /** Why nobody is signed in, when it is news: Echo refused the refresh on this very answer. */
  reason?: typeof ECHO_REASONS.sessionEnded
}

/** The channel the app's tabs hear of sign-ins and sign-outs on in server mode (no token ever goes on it). */
export function serverSessionChannel(appId: string): string {
  return `echo-rtk:server-session:${appId}`
}
