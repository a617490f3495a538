import { createSlice, isAnyOf } from '@reduxjs/toolkit'

import { echoApi } from '../api/echoApi'
import type { Balance, FreeTierBalance } from '../api/wireTypes'
import type { EchoErrorData } from '../errors'
import { signedOut } from './authSlice'

export type BalanceStatus = 'idle' | 'loading' | 'succeeded' | 'failed'

/** The signed-in user's credit, following the RTK Query results for it. */
export interface BalanceState {
  balance: Balance | null
  freeTierBalance: FreeTierBalance | null
  status: BalanceStatus
  error: EchoErrorData | null
}

export const initialBalanceState: BalanceState = { balance: null, freeTierBalance: null, status: 'idle', error: null }

const { getBalance, getFreeBalance } = echoApi.endpoints

export const balanceSlice = createSlice({
  name: 'echo/balance',
  initialState: initialBalanceState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addMatcher(getBalance.matchPending, (state) => {
        state.status = 'loading'
      })
      .addMatcher(getBalance.matchFulfilled, (state, { payload }) => {
        state.balance = payload
        state.status = 'succeeded'
        state.error = null
      })
      .addMatcher(getBalance.matchRejected, (state, { payload, meta }) => {
        if (meta.aborted || meta.condition) return
        state.status = 'failed'
        state.error = payload ?? { code: 'UNKNOWN_ERROR', message: 'The balance could not be loaded' }
      })
      .addMatcher(getFreeBalance.matchFulfilled, (state, { payload }) => {
        state.freeTierBalance = payload
      })
      .addMatcher(isAnyOf(signedOut, echoApi.util.resetApiState), () => initialBalanceState)
  },
})
