import type { Dispatch } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'
import type { SessionReporter } from '../../auth/sessionReporter'
import { signedIn, signedOut, signInFailed, signInStarted, tokenRefreshed, tokenRefreshInterrupted, tokenRefreshStarted } from '../authSlice'

/** What the session reports, as the store's actions. */
export function sessionReports(dispatch: Dispatch): SessionReporter {
  return {
    signInStarted: () => dispatch(signInStarted()),
    signedIn: (snapshot) => dispatch(signedIn(snapshot)),
    signInFailed: (error, arrivedBy) => dispatch(signInFailed(error, arrivedBy)),
    tokenRefreshStarted: () => dispatch(tokenRefreshStarted()),
    tokenRefreshed: (token) => dispatch(tokenRefreshed(token)),
    tokenRefreshInterrupted: () => dispatch(tokenRefreshInterrupted()),
    signedOut: (ended) => dispatch(signedOut(ended)),
    balanceChanged: () => dispatch(echoApi.util.invalidateTags(['Balance'])),
  }
}
