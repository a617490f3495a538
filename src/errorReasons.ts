/**
 * What went wrong, as a closed set of codes:
 * `NETWORK_ERROR` (the request never got an answer), `HTTP_<status>` (a non-OK answer),
 * `UNKNOWN_ERROR` (anything else, an aborted request included).
 */
export type EchoErrorCode = 'NETWORK_ERROR' | 'UNKNOWN_ERROR' | `HTTP_${number}`

/**
 * Why it went wrong, as a closed set to branch on (the message is for people, and may change):
 *
 * - `not-authenticated`: nobody is signed in; nothing was sent.
 * - `session-ended`: Echo refused to renew the session; the user is signed out.
 * - `session-stopped`: the store's session is stopped (its `<EchoProvider>` unmounted, or
 *   `stopEchoSession` was dispatched); nothing was sent or stored.
 * - `sign-in-refused`: Echo sent the user back with an error instead of a sign-in.
 * - `popup-closed`: the user closed the sign-in window before signing in.
 * - `popup-blocked`: the browser blocked the sign-in window (and the app asked for no redirect instead).
 * - `popup-timeout`: the sign-in window got no answer in time; it was closed.
 * - `echo-unreachable`: Echo could not be reached to renew the session (the user is still signed
 *   in and the session tries again) or, on a server, to check a token.
 * - `refresh-timeout`: a token refresh got no answer in time.
 * - `network`: the request got no answer.
 * - `aborted`: the call's `AbortSignal` fired.
 * - `unauthorized`: a 401 that a refresh could not cure.
 * - `insufficient-funds`: a 402: the user's credit is spent.
 * - `spend-limit`: today's daily limit for this app is reached; the call was not sent.
 * - `call-cost-limit`: the call could cost more than its ceiling (`EchoConfig.maxCallCost`, `X-Echo-Max-Cost`), or
 *   its model has no known price while a ceiling is set; the call was not sent.
 * - `http`: any other non-OK answer.
 * - `bad-answer`: an answer that is not JSON, or lacks what the call promises.
 * - `model-error`: the router or the model reported an error inside a stream that had begun.
 * - `foreign-origin`: refused to send the user's token to, or follow a link to, an origin that is not Echo's.
 * - `cross-site`: on the app's server, a request with the session cookie that did not come from the app's own pages.
 * - `bad-argument`: input refused before anything was sent.
 * - `misconfigured`: a setup mistake (no API key or token provider, an origin list that is not URLs).
 * - `unknown`: anything else.
 */
export type EchoErrorReason =
  | 'not-authenticated'
  | 'session-ended'
  | 'session-stopped'
  | 'sign-in-refused'
  | 'popup-closed'
  | 'popup-blocked'
  | 'popup-timeout'
  | 'echo-unreachable'
  | 'refresh-timeout'
  | 'network'
  | 'aborted'
  | 'unauthorized'
  | 'insufficient-funds'
  | 'spend-limit'
  | 'call-cost-limit'
  | 'http'
  | 'bad-answer'
  | 'model-error'
  | 'foreign-origin'
  | 'cross-site'
  | 'bad-argument'
  | 'misconfigured'
  | 'unknown'

const REASONS: ReadonlySet<string> = new Set<EchoErrorReason>([
  'not-authenticated',
  'session-ended',
  'session-stopped',
  'sign-in-refused',
  'popup-closed',
  'popup-blocked',
  'popup-timeout',
  'echo-unreachable',
  'refresh-timeout',
  'network',
  'aborted',
  'unauthorized',
  'insufficient-funds',
  'spend-limit',
  'call-cost-limit',
  'http',
  'bad-answer',
  'model-error',
  'foreign-origin',
  'cross-site',
  'bad-argument',
  'misconfigured',
  'unknown',
])

/**
 * The sentence a person reads for each reason they can meet, whatever the call was
 * (`EchoError.userMessage`); the other reasons are a developer's to read, in the message.
 */
export const SAID_TO_PEOPLE: Readonly<Partial<Record<EchoErrorReason, string>>> = {
  'not-authenticated': 'You are signed out. Sign in to keep going.',
  'session-ended': 'Your session has ended. Sign in again.',
  unauthorized: 'Echo did not accept your sign-in. Sign in again.',
  'insufficient-funds': 'You are out of credits. Add credits to keep going.',
  'spend-limit': "Today's limit for this app is reached. Raise it to keep going.",
  network: 'You seem to be offline. Check your connection and try again.',
  'echo-unreachable': 'Echo cannot be reached right now. Try again in a moment.',
  'refresh-timeout': 'Echo cannot be reached right now. Try again in a moment.',
  'popup-closed': 'The sign-in window was closed before signing in.',
  'popup-blocked': 'The browser blocked the sign-in window: allow pop-ups for this site, or sign in again.',
  'popup-timeout': 'The sign-in window did not answer in time. Try again.',
}

/** Whether `value` is one of the reasons (data read back from state or a log may hold anything). @internal */
export function isEchoErrorReason(value: unknown): value is EchoErrorReason {
  return typeof value === 'string' && REASONS.has(value)
}

/** The reason a code says by itself, for an error made without one. @internal */
export function reasonOfCode(code: EchoErrorCode): EchoErrorReason {
  if (code === 'NETWORK_ERROR') return 'network'
  if (code === 'HTTP_401') return 'unauthorized'
  if (code === 'HTTP_402') return 'insufficient-funds'
  return code === 'UNKNOWN_ERROR' ? 'unknown' : 'http'
}
