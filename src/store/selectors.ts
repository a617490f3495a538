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
export const selectFreeTierBalance = (state: EchoRootState): FreeTierBalance | null => state.echo.balance.freeTierBalance
/** A call was refused for want of credit (402), until a refreshed balance shows credit again. */
export const selectIsInsufficientFunds = (state: EchoRootState): boolean => state.echo.balance.isInsufficientFunds
/** The auth error first, then the balance error. */
export const selectEchoError = (state: EchoRootState): EchoErrorData | null => state.echo.auth.error ?? state.echo.balance.error
