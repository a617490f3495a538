import type { UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'

/**
 * Why the balance is asked for again, in the action's `meta.cause` (Redux DevTools shows it): a billed
 * call ended, a checkout came back (its backoff's checks), new tokens ended an outage, or a developer
 * played a moment. Coming back
 * to the page is RTK Query's own refetch on `__rtkq/focused`.
 */
export type BalanceRefetchCause =
  | { by: 'billed-call' }
  | { by: 'checkout'; check: number }
  | { by: 'reconnected' }
  /** A moment played from Redux DevTools in development (`echoDevMoments.showLowBalance`). */
  | { by: 'dev-moment' }

/** The action that asks for the balance again (RTK Query's `invalidateTags(['Balance'])`), saying why. */
export function balanceAskedAgain(cause: BalanceRefetchCause): UnknownAction {
  return { ...echoApi.util.invalidateTags(['Balance']), meta: { cause } }
}
