import type { AuthorizedSend } from '../authorizedFetch'
import { missingMiddlewareMessage, noSessionMessage } from './setupMessages'

const GET_ECHO_SESSION = 'echo/getSession'

/** What the layers below the store need of its session: the baseQuery its authorized fetch, the thunks its config. */
export interface EchoSessionPort {
  readonly config: { readonly apiUrl: string; readonly appId: string }
  readonly sendAuthorized: AuthorizedSend
}

/** The private request the session middleware answers with the store's session (as `addListener` answers with its unsubscribe). */
export interface GetEchoSessionAction {
  type: typeof GET_ECHO_SESSION
  [extra: string]: unknown
}

/** @internal */
export const getEchoSession = (): GetEchoSessionAction => ({ type: GET_ECHO_SESSION })

/** @internal */
export function isGetEchoSession(action: unknown): action is GetEchoSessionAction {
  return typeof action === 'object' && action !== null && (action as { type?: unknown }).type === GET_ECHO_SESSION
}

/**
 * The session of the store behind `dispatch`, asked for through its middleware: the one way
 * anything finds a store's session. Throws a message that says what to add when the store lacks it.
 * @internal
 */
export function echoSessionOf<Session extends EchoSessionPort = EchoSessionPort>(dispatch: (action: GetEchoSessionAction) => unknown): Session {
  const answer = dispatch(getEchoSession())
  if (isGetEchoSession(answer)) throw new Error(missingMiddlewareMessage())
  if (answer === undefined || answer === null) throw new Error(noSessionMessage())
  return answer as Session
}
