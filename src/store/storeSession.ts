import type { Dispatch } from '@reduxjs/toolkit'

import { sessionPortOf, type SessionPort } from '../api/query/sessionPort'
import type { EchoSession } from '../auth/EchoSession'
import type { EchoEnvironment } from '../auth/environment'
import type { MoneyWatch } from './middleware/moneyWatch'

/** What something built on a store's session is made from. */
export interface OwnedContext {
  session: EchoSession
  environment: EchoEnvironment
  dispatch: Dispatch
  /** The user's money: each billed call's cost, today's spend, the daily limit. */
  money: MoneyWatch
  /** Another thing the store owns, made once. */
  owned: <T>(create: Owned<T>) => T
  /** Runs `hook` whenever the session stops (a pending timer of the thing made, say). */
  onStop: (hook: () => void) => void
}

/** How to make something the store keeps for its session's life (the model router, the session's fetch). */
export type Owned<T> = (context: OwnedContext) => T

/**
 * A store's session as the store's own layer reaches it: the session, and what is built on it. The
 * session middleware answers the RTK Query layer's {@link SessionPort} request with this.
 */
export interface StoreSession extends SessionPort {
  readonly session: EchoSession
  readonly money: MoneyWatch
  /** The thing `create` makes for this store, made on first use and kept for the session's life. */
  owned<T>(create: Owned<T>): T
}

/**
 * The session of the store behind `dispatch`: the one way the thunks and the hooks find it. Throws a
 * message that says what to add when the store has no session middleware, or its session has not
 * been started.
 * @internal
 */
export function storeSessionOf(dispatch: (action: { type: string }) => unknown): StoreSession {
  return sessionPortOf(dispatch) as StoreSession
}
