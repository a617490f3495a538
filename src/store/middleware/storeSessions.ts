import type { Dispatch } from '@reduxjs/toolkit'

import { noSessionMessage } from '../../api/query/setupMessages'
import type { Owned, StoreSession } from '../../api/query/storeSession'
import type { EchoSession } from '../../auth/EchoSession'
import type { EchoEnvironment } from '../../auth/environment'

/**
 * The middleware's part: answers `storeSessionOf` once the session has started, makes and
 * keeps what the store owns, and stops it with the session. @internal
 */
export function storeSessions(dispatch: Dispatch, current: () => { session: EchoSession | undefined; environment: EchoEnvironment | undefined }) {
  const made = new Map<Owned<unknown>, unknown>()
  const stopHooks: (() => void)[] = []
  const owned = <T>(create: Owned<T>): T => {
    const { session, environment } = current()
    if (session === undefined || environment === undefined) throw new Error(noSessionMessage())
    if (!made.has(create)) made.set(create, create({ session, environment, dispatch, owned, onStop: (hook) => stopHooks.push(hook) }))
    return made.get(create) as T
  }
  return {
    /** The answer to `storeSessionOf`'s request: `undefined` before the session starts. */
    answer: (): StoreSession | undefined => {
      const { session } = current()
      return session === undefined ? undefined : { session, owned }
    },
    stop: () => {
      for (const hook of stopHooks) hook()
    },
    /** Stops what was made for the session, and forgets it: a new session makes its own. */
    reset: () => {
      for (const hook of stopHooks.splice(0)) hook()
      made.clear()
    },
  }
}
