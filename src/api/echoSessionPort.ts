import type { AuthorizedSend } from './authorizedFetch'

const GET_ECHO_SESSION = 'echo/getSession'

/** What the RTK Query baseQuery needs of its store's session. */
export interface EchoSessionPort {
  readonly apiUrl: string
  readonly appId: string
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

// The setup messages below name what to add; production builds (where bundlers set NODE_ENV, as
// Redux Toolkit and react-redux already need) keep only what is wrong, to stay small. NODE_ENV is
// read when a message is made, never at import, so loading echo-rtk needs no `process`. The check
// stays inline at each message: through a helper, the advice would be an argument no bundler drops.

/** How a store is set up for echo-rtk, quoted by the messages for a store that is not. */
export const STORE_SETUP =
  'configureStore({ reducer: { ...echoReducers }, middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware) })'

/** The message for a store that was not set up with echo-rtk's middleware. */
export function missingMiddlewareMessage(): string {
  return process.env.NODE_ENV === 'production'
    ? 'echo-rtk: this store has no echoMiddleware'
    : `echo-rtk: this store has no echoMiddleware. Add it: ${STORE_SETUP}`
}

/** The message for a store whose session was never started. */
function noSessionMessage(): string {
  return process.env.NODE_ENV === 'production'
    ? 'echo-rtk: this store has no Echo session yet'
    : 'echo-rtk: this store has no Echo session yet. Render it inside <EchoProvider config={...} store={store}>, or dispatch startEchoSession(config) once'
}

/**
 * The session of the store behind `dispatch`, asked for through the middleware; throws a message
 * that says what to add when the store lacks it.
 * @internal
 */
export function echoSessionOf<Session extends EchoSessionPort = EchoSessionPort>(dispatch: (action: GetEchoSessionAction) => unknown): Session {
  const answer = dispatch(getEchoSession())
  if (isGetEchoSession(answer)) throw new Error(missingMiddlewareMessage())
  if (answer === undefined || answer === null) throw new Error(noSessionMessage())
  return answer as Session
}
