import type { Dispatch } from '@reduxjs/toolkit'

import { missingMiddlewareMessage, noSessionMessage } from '../../api/query/setupMessages'
import type { EchoSession } from '../../auth/EchoSession'
import type { EchoEnvironment } from '../../auth/environment'

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

// A plain request: what to make is passed to the answer, not in the action, which stays
// serializable (Redux Toolkit's check sees every action on its way to the middleware).
const GET_OWNER = 'echo/getOwner'

type Owner = <T>(create: Owned<T>) => T

function isGetOwner(action: unknown): boolean {
  return typeof action === 'object' && action !== null && (action as { type?: unknown }).type === GET_OWNER
}

/**
 * The thing `create` makes for the store behind `dispatch`, made on first use and kept: what an
 * app never asks for is never built (nor, being reached only from here, bundled).
 * @internal
 */
export function ownedBy<T>(dispatch: (action: { type: string }) => unknown, create: Owned<T>): T {
  const owner = dispatch({ type: GET_OWNER })
  if (typeof owner !== 'function') throw new Error(missingMiddlewareMessage())
  return (owner as Owner)(create)
}

/** The middleware's part: makes and keeps what the store owns, and stops it with the session. @internal */
export function storeOwned(dispatch: Dispatch, current: () => { session: EchoSession | undefined; environment: EchoEnvironment | undefined }) {
  const made = new Map<Owned<unknown>, unknown>()
  const stopHooks: (() => void)[] = []
  const owned = <T>(create: Owned<T>): T => {
    const { session, environment } = current()
    if (session === undefined || environment === undefined) throw new Error(noSessionMessage())
    if (!made.has(create)) made.set(create, create({ session, environment, dispatch, owned, onStop: (hook) => stopHooks.push(hook) }))
    return made.get(create) as T
  }
  return {
    /** The answer to `ownedBy`'s request (the maker of owned things), or `undefined` when `action` is not it. */
    answer: (action: unknown): Owner | undefined => (isGetOwner(action) ? owned : undefined),
    stop: () => {
      for (const hook of stopHooks) hook()
    },
  }
}
