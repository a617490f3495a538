import type { Balance, FreeTierBalance } from '../api/wireTypes'
import type { EchoUser } from '../auth/echoUser'
import type { EchoErrorData } from '../errors'
import type { AuthStatus } from './authSlice'
import type { EchoRootState } from './echoReducer'

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

/** The daily limit in force: the user's own for this app, else the app's (`EchoConfig.dailyLimit`); `null` for none. */
export const selectDailyLimit = (state: EchoRootState): number | null => {
  const { userDailyLimit, appDailyLimit } = state.echo.money
  return userDailyLimit === undefined ? appDailyLimit : userDailyLimit
}

/** Today's spend has reached the daily limit: billed calls are refused until the limit is raised or the day ends. */
export const selectIsSpendLimitReached = (state: EchoRootState): boolean => {
  const limit = selectDailyLimit(state)
  const spent = state.echo.money.spentToday
  return limit !== null && spent !== null && spent >= limit
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

// The money in Echo's answers, read safely (a field missing or odd is `null`, never NaN).

/**
 * Credit at or below this many US dollars is spent: Echo's router serves a call while the user has
 * more than $0.0001 of paid balance or free tier, so a 402 can leave up to that much on the books.
 */
export const SPENT_AT_OR_BELOW_USD = 0.0001

/** A US-dollar amount from a server answer, or `null` when the field is missing or not a finite number. */
function usdOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** The paid balance in US dollars, or `null` when it is not known (no answer, or an odd one). */
export function paidBalanceOf(balance: Balance | null): number | null {
  return usdOf((balance as Partial<Balance> | null)?.balance)
}

/**
 * Whether the app has a free tier: a spend pool. Echo answers an app without one as one with a
 * zero pool (`spendPoolId: null`, `amountLeft: 0`), which is no free tier to show.
 */
export function hasFreeTier(freeTier: FreeTierBalance | null): boolean {
  const poolId: unknown = (freeTier as Partial<FreeTierBalance> | null)?.userSpendInfo?.spendPoolId
  return typeof poolId === 'string' && poolId !== ''
}

/**
 * What is left of the free tier in US dollars, never below 0 (the wire's `amountLeft` can be
 * negative), or `null` when it is not known.
 */
export function freeTierLeftOf(freeTier: FreeTierBalance | null): number | null {
  const left = usdOf((freeTier as Partial<FreeTierBalance> | null)?.userSpendInfo?.amountLeft)
  return left === null ? null : Math.max(left, 0)
}

/** Whether a paid balance shows credit: more than what Echo's router counts as spent. */
export function showsPaidCredit(balance: Balance | null): boolean {
  return (paidBalanceOf(balance) ?? 0) > SPENT_AT_OR_BELOW_USD
}

/**
 * What of the free tier the router can still draw, in US dollars: the user's share left, under
 * what is left in the app's pool (a spent pool serves nobody); `null` when it is not known.
 */
export function freeCreditOf(freeTier: FreeTierBalance | null): number | null {
  const left = freeTierLeftOf(freeTier)
  const pool = usdOf((freeTier as Partial<FreeTierBalance> | null)?.spendPoolBalance) ?? Infinity
  return left === null ? null : Math.min(left, Math.max(pool, 0))
}

/** Whether a free tier shows credit the router can still draw: more than what it counts as spent. */
export function showsFreeCredit(freeTier: FreeTierBalance | null): boolean {
  return (freeCreditOf(freeTier) ?? 0) > SPENT_AT_OR_BELOW_USD
}
