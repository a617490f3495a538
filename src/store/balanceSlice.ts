import { createSlice, isAnyOf, isRejectedWithValue, type UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../api/query/echoApi'
import type { Balance, FreeTierBalance } from '../api/wireTypes'
import type { EchoErrorData } from '../errors'
import { sessionReset, signedOut } from './authSlice'
import { showsFreeCredit, showsPaidCredit } from './money/credit'

export type BalanceStatus = 'idle' | 'loading' | 'succeeded' | 'failed'

/** The signed-in user's credit, following the RTK Query results for it. */
export interface BalanceState {
  balance: Balance | null
  freeTierBalance: FreeTierBalance | null
  /** The paid balance's request. */
  status: BalanceStatus
  /** The free tier's request: with `status`, it says when both figures are in. */
  freeTierStatus: BalanceStatus
  error: EchoErrorData | null
  /** Why the last payment link could not be made; cleared by the next attempt. */
  paymentError: EchoErrorData | null
  /** Set when Echo answered 402 (out of credits); cleared once a refreshed balance has credit again. */
  isInsufficientFunds: boolean
}

export const initialBalanceState: BalanceState = {
  balance: null,
  freeTierBalance: null,
  status: 'idle',
  freeTierStatus: 'idle',
  error: null,
  paymentError: null,
  isInsufficientFunds: false,
}

const { getBalance, getFreeBalance, createPaymentLink } = echoApi.endpoints

/** Any echoApi call that Echo refused with 402. */
function isPaymentRequired(action: UnknownAction): boolean {
  return (
    isRejectedWithValue(action) &&
    action.type.startsWith(`${echoApi.reducerPath}/`) &&
    (action.payload as EchoErrorData | undefined)?.statusCode === 402
  )
}

export const balanceSlice = createSlice({
  name: 'echo/balance',
  initialState: initialBalanceState,
  reducers: {
    /** Echo answered 402: the user's credit is spent. The router reports it; so does any API call. */
    insufficientFundsDetected(state) {
      state.isInsufficientFunds = true
    },
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(getBalance.matchPending, (state) => {
        state.status = 'loading'
      })
      .addMatcher(getBalance.matchFulfilled, (state, { payload }) => {
        state.balance = payload
        state.status = 'succeeded'
        state.error = null
        // Each answer speaks for itself: the other figure may be older than the 402 (and wrong since).
        if (showsPaidCredit(payload)) state.isInsufficientFunds = false
      })
      .addMatcher(getBalance.matchRejected, (state, { payload, meta }) => {
        if (meta.aborted || meta.condition) return
        state.status = 'failed'
        state.error = payload ?? {
          code: 'UNKNOWN_ERROR',
          reason: 'unknown',
          message: 'The balance could not be loaded',
        }
      })
      .addMatcher(getFreeBalance.matchPending, (state) => {
        state.freeTierStatus = 'loading'
      })
      .addMatcher(getFreeBalance.matchRejected, (state, { meta }) => {
        // The free tier is extra: an app without one shows the paid balance alone.
        if (!meta.aborted && !meta.condition) state.freeTierStatus = 'failed'
      })
      .addMatcher(getFreeBalance.matchFulfilled, (state, { payload }) => {
        state.freeTierBalance = payload
        state.freeTierStatus = 'succeeded'
        if (showsFreeCredit(payload)) state.isInsufficientFunds = false
      })
      .addMatcher(createPaymentLink.matchPending, (state) => {
        state.paymentError = null
      })
      .addMatcher(createPaymentLink.matchRejected, (state, { payload, error }) => {
        state.paymentError = payload ?? {
          code: 'UNKNOWN_ERROR',
          reason: 'unknown',
          message: error.message ?? 'The payment link could not be created',
        }
      })
      .addMatcher(isPaymentRequired, (state) => {
        state.isInsufficientFunds = true
      })
      .addMatcher(isAnyOf(signedOut, echoApi.util.resetApiState), () => initialBalanceState)
      .addMatcher(sessionReset.match, () => initialBalanceState)
  },
})

export const { insufficientFundsDetected } = balanceSlice.actions
