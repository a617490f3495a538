import { SAID_TO_PEOPLE } from '../errorReasons'
import { EchoError, type EchoErrorData } from '../errors'

// What the session says when it cannot do what it was asked, or when the session ends on its own.

/** What the store is told when a session ends on its own: its refresh failed, which signs the user out. */
export const SESSION_ENDED: EchoErrorData = {
  code: 'UNKNOWN_ERROR',
  reason: 'session-ended',
  message: SAID_TO_PEOPLE['session-ended']!,
}

/** Why calls that waited on a refresh that could not reach Echo fail (`NETWORK_ERROR`): the session is still on. */
export const RECONNECTING = 'Echo could not be reached to renew the session (it will try again)'

/** Why a stopped session sends nothing: its provider unmounted (or the app stopped it). */
export const SESSION_STOPPED =
  'The Echo session of this store is stopped (its <EchoProvider> unmounted, or stopEchoSession was dispatched)'

/** Why a refresh that outlived its user (a sign-out, another user signed in) is thrown away. */
export const REFRESH_OUTLIVED = 'The session ended while its token was being refreshed'

/** What a stopped session answers instead of acting (`action`: what it was asked to do). @internal */
export function sessionStopped(action: string): EchoError {
  return new EchoError({ code: 'UNKNOWN_ERROR', reason: 'session-stopped', message: SESSION_STOPPED, action })
}

/** Echo sent the user back with an error instead of a sign-in. */
export function refusedSignIn({ error, description }: { error: string; description: string | null }): EchoError {
  const reason = description === null ? error : `${description} (${error})`
  return new EchoError({ code: 'UNKNOWN_ERROR', reason: 'sign-in-refused', message: `Sign-in was refused: ${reason}` })
}

/** The error calls that waited on a refresh get while Echo cannot be reached: `cause` says how it failed. */
export function reconnecting(cause: Error): EchoError {
  return new EchoError({ code: 'NETWORK_ERROR', reason: 'echo-unreachable', message: RECONNECTING, cause })
}
