import type { AuthorizedSend } from '../authorizedFetch'
import { missingMiddlewareMessage, noSessionMessage } from './setupMessages'

/**
 * What the RTK Query layer needs of a store's Echo session: where Echo is, and the session's
 * authorized fetch (the bearer token, the one shared refresh, the marked retry). The session lives
 * in a layer above this one, so the baseQuery asks the store for it rather than importing it: the
 * session middleware answers.
 */
export interface SessionPort {
  readonly config: { readonly apiUrl: string; readonly appId: string }
  /** Where Echo's API calls go: Echo's `apiUrl`, or the app's server in server mode. */
  readonly apiBase: string
  readonly sendAuthorized: AuthorizedSend
}

// A plain request, answered by the session middleware (as `addListener` is answered with its
// unsubscribe): the session is per store, never module-global, and the action stays serializable.
const ASK_SESSION = 'echo/getSession'

/** The request {@link sessionPortOf} dispatches. @internal */
export const askSession = () => ({ type: ASK_SESSION })

/** @internal */
export function isAskSession(action: unknown): boolean {
  return typeof action === 'object' && action !== null && (action as { type?: unknown }).type === ASK_SESSION
}

/**
 * The session of the store behind `dispatch`, as the RTK Query layer sees it. Throws a message that
 * says what to add when the store has no session middleware, or its session has not been started.
 * @internal
 */
export function sessionPortOf(dispatch: (action: { type: string }) => unknown): SessionPort {
  const answer = dispatch(askSession())
  if (isAskSession(answer)) throw new Error(missingMiddlewareMessage())
  if (answer === undefined) throw new Error(noSessionMessage())
  return answer as SessionPort
}
