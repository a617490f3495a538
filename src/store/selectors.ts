import type { Balance, FreeTierBalance } from '../api/wireTypes'
import type { EchoUser } from '../auth/echoUser'
import type { EchoErrorData } from '../errors'
import type { AuthStatus } from './authSlice'
import type { EchoRootState } from './echoReducer'
import { freeCreditOf, paidBalanceOf } from './money/credit'

export { selectDailyLimit, selectIsSpendLimitReached } from './money/dailyLimit'

/** `'loading'` until the session has read storage, then `'authenticated'` or `'unauthenticated'`. */
export const selectAuthStatus = (state: EchoRootState): AuthStatus => state.echo.auth.status
export const selectEchoUser = (state: EchoRootState): EchoUser | null => state.echo.auth.user
export const selectIsAuthenticated = (state: EchoRootState): boolean => state.echo.auth.status === 'authenticated'
/** The paid balance (the Balance wire shape), or `null` before it loads and after sign-out. */
export const selectBalance = (state: EchoRootState): Balance | null => state.echo.balance.balance
export const selectFreeTierBalance = (state: EchoRootState): FreeTierBalance | null =>
  state.echo.balance.freeTierBalance
/** A call was refused for want of credit (402), until a refreshed balance shows credit again. */
export const selectIsInsufficientFunds = (state: EchoRootState): boolean => state.echo.balance.isInsufficientFunds
/** A refresh could not reach Echo: still signed in, and the session is trying again. */
export const selectIsReconnecting = (state: EchoRootState): boolean => state.echo.auth.isReconnecting
/** A sign-in this page started is under way (in its window, or leaving for Echo). */
export const selectIsSigningIn = (state: EchoRootState): boolean => state.echo.auth.isSigningIn
/**
 * The auth error first, then the balance error. While the session reconnects, a balance that could
 * not be fetched for want of a network is what `isReconnecting` already says, so it is no error.
 */
export const selectEchoError = (state: EchoRootState): EchoErrorData | null =>
  state.echo.auth.error ?? quietWhileReconnecting(state.echo.balance.error, state.echo.auth.isReconnecting)

/** `error`, unless it is a network failure while the session is reconnecting. @internal */
export function quietWhileReconnecting(error: EchoErrorData | null, isReconnecting: boolean): EchoErrorData | null {
  return isReconnecting && error?.code === 'NETWORK_ERROR' ? null : error
}

/** Whether the free tier has arrived, or will not (its request failed: an app without one). */
const freeTierSettled = ({ echo: { balance } }: EchoRootState): boolean =>
  balance.freeTierBalance !== null || balance.freeTierStatus === 'failed'

/**
 * What the user can spend, in US dollars: the paid balance and what the router can still draw of
 * the free tier, together; `null` until both have arrived, so a header shows one figure, once
 * (never the paid balance alone, then the sum). Kept while either is refetched.
 */
export const selectCredit = (state: EchoRootState): number | null => {
  const paid = paidBalanceOf(state.echo.balance.balance)
  if (paid === null || !freeTierSettled(state)) return null
  return paid + (freeCreditOf(state.echo.balance.freeTierBalance) ?? 0)
}

/** The user's credit is known and under `EchoConfig.lowBalanceAt`. */
export const selectIsLowBalance = (state: EchoRootState): boolean => {
  const credit = selectCredit(state)
  return credit !== null && credit < state.echo.money.lowBalanceAt
}

/** Signed in, and the paid balance or the free tier has not arrived yet (neither has failed for good). */
export const selectIsBalanceLoading = (state: EchoRootState): boolean => {
  if (state.echo.auth.status !== 'authenticated') return false
  const { balance, status } = state.echo.balance
  return (balance === null && status !== 'failed') || !freeTierSettled(state)
}
