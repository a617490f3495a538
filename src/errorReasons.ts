import type { EchoErrorCode } from './errors'

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
 * - `http`: any other non-OK answer.
 * - `bad-answer`: an answer that is not JSON, or lacks what the call promises.
 * - `model-error`: the router or the model reported an error inside a stream that had begun.
 * - `foreign-origin`: refused to send the user's token to, or follow a link to, an origin that is not Echo's.
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
  | 'http'
  | 'bad-answer'
  | 'model-error'
  | 'foreign-origin'
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
  'http',
  'bad-answer',
  'model-error',
  'foreign-origin',
  'bad-argument',
  'misconfigured',
  'unknown',
])

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
