import type { Dispatch } from '@reduxjs/toolkit'

import type { EchoSession } from '../../auth/EchoSession'
import type { EchoEnvironment } from '../../auth/environment'
import { missingMiddlewareMessage, noSessionMessage } from './setupMessages'

/** What something built on a store's session is made from. */
export interface OwnedContext {
  session: EchoSession
  environment: EchoEnvironment
  dispatch: Dispatch
  /** Another thing the store owns, made once. */
  owned: <T>(create: Owned<T>) => T
  /** Runs `hook` whenever the session stops (a pending timer of the thing made, say). */
  onStop: (hook: () => void) => void
}

/** How to make something the store keeps for its session's life (the model router, the session's fetch). */
export type Owned<T> = (context: OwnedContext) => T

/** A store's session as the layers on the store reach it: the session, and what is built on it. */
export interface StoreSession {
  readonly session: EchoSession
  /** The thing `create` makes for this store, made on first use and kept for the session's life. */
  owned<T>(create: Owned<T>): T
}

// A plain request, answered by the session middleware (as `addListener` is answered with its
// unsubscribe): the session is per store, never module-global, and the action stays serializable.
const GET_SESSION = 'echo/getSession'

/** The request {@link storeSessionOf} dispatches. @internal */
export const getStoreSession = () => ({ type: GET_SESSION })

/** @internal */
export function isGetStoreSession(action: unknown): boolean {
  return typeof action === 'object' && action !== null && (action as { type?: unknown }).type === GET_SESSION
}

/**
 * The session of the store behind `dispatch`: the one way the baseQuery, the thunks and the hooks
 * find it. Throws a message that says what to add when the store has no session middleware, or
 * its session has not been started.
 * @internal
 */
export function storeSessionOf(dispatch: (action: { type: string }) => unknown): StoreSession {
  const answer = dispatch(getStoreSession())
  if (isGetStoreSession(answer)) throw new Error(missingMiddlewareMessage())
  if (answer === undefined) throw new Error(noSessionMessage())
  return answer as StoreSession
}
