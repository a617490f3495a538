import { createAction, createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit'

import { sessionReset, signedOut } from '../authSlice'

/** What Echo charged for one answer, or for calls that overlapped (then `calls` counts them). */
export interface EchoCharge {
  /** US dollars, from the paid balance and the free tier together. */
  amount: number
  /** How many billed calls the amount covers: more than one when they ran at the same time. */
  calls: number
  /** When the charge was seen, epoch milliseconds. */
  at: number
}

/**
 * Where a top-up stands after checkout said it was paid.
 *
 * @inline
 */
export type TopUpStatus = 'waiting' | 'credited' | 'late'

/**
 * A top-up after checkout: the credits waited for, then counted.
 *
 * @inline
 */
export interface TopUpState {
  status: TopUpStatus
  /** What came in, in US dollars, once `credited`; `null` before. */
  amount: number | null
}

/**
 * What the signed-in user spent in this app, their daily limit, and a top-up on its way.
 *
 * @inline
 */
export interface MoneyState {
  /** Spent in this app today (the local day), in US dollars, in every tab; `null` until read. */
  spentToday: number | null
  /** Spent in this app since this page signed in. */
  spentThisSession: number
  /** The last answer's cost (or the last calls that overlapped), `null` before the first. */
  lastCharge: EchoCharge | null
  /** The user's own daily limit for this app: a number, `null` for none, or `undefined` before they chose. */
  userDailyLimit: number | null | undefined
  /** The app's default daily limit (`EchoConfig.dailyLimit`), `null` for none. */
  appDailyLimit: number | null
  /** Below this much credit the balance is low (`EchoConfig.lowBalanceAt`). */
  lowBalanceAt: number
  topUp: TopUpState | null
}

/** The figures a signed-in user starts with: today's spend as stored, their limit, and the app's settings. */
export interface MoneyLoadedPayload {
  spentToday: number
  userDailyLimit: number | null | undefined
  appDailyLimit: number | null
  lowBalanceAt: number
}

/**
 * Checkout was paid: the store's top-up watch waits for the credits, as it does when this page is a
 * checkout's return or another tab's message says one was paid. `paidAtCheckout(store)` in
 * `echo-rtk/testing` sends it (as the plain action `{ type: 'echo/checkoutPaid' }`: that entry uses
 * no Redux) to play a top-up whose credits are still on their way.
 * @internal
 */
export const checkoutPaid = createAction('echo/checkoutPaid')

export const initialMoneyState: MoneyState = {
  spentToday: null,
  spentThisSession: 0,
  lastCharge: null,
  userDailyLimit: undefined,
  appDailyLimit: null,
  lowBalanceAt: 1,
  topUp: null,
}

export const moneySlice = createSlice({
  name: 'echo/money',
  initialState: initialMoneyState,
  // Each state typed as MoneyState: the slice's declaration then names no draft type of Immer's.
  reducers: {
    moneyLoaded(state: MoneyState, { payload }: PayloadAction<MoneyLoadedPayload>) {
      Object.assign(state, payload)
    },
    /** Today's total changed in another tab, or a new day began. */
    spentTodayChanged(state: MoneyState, { payload }: PayloadAction<number>) {
      state.spentToday = payload
    },
    /** A charge was seen here; `spentToday` is the day's new total. */
    charged(state: MoneyState, { payload }: PayloadAction<{ charge: EchoCharge; spentToday: number }>) {
      state.lastCharge = payload.charge
      state.spentThisSession += payload.charge.amount
      state.spentToday = payload.spentToday
    },
    dailyLimitChosen(state: MoneyState, { payload }: PayloadAction<number | null>) {
      state.userDailyLimit = payload
    },
    topUpWaiting(state: MoneyState) {
      state.topUp = { status: 'waiting', amount: null }
    },
    topUpLate(state: MoneyState) {
      if (state.topUp?.status === 'waiting') state.topUp.status = 'late'
    },
    /** The credits arrived: `payload` more than before, or `null` when this page knew no figure from before. */
    topUpCredited(state: MoneyState, { payload }: PayloadAction<number | null>) {
      state.topUp = { status: 'credited', amount: payload }
    },
  },
  extraReducers: (builder) => {
    builder.addMatcher(isAnyOf(signedOut, sessionReset), () => initialMoneyState)
  },
})

export const { moneyLoaded, spentTodayChanged, charged, dailyLimitChosen, topUpWaiting, topUpLate, topUpCredited } =
  moneySlice.actions
