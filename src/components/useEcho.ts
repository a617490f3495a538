import { useMemo } from 'react'
import { shallowEqual } from 'react-redux'

import { useEchoSelector, useEchoStore } from '../api/query/echoReduxContext'
import type { Balance, FreeTierBalance } from '../api/wireTypes'
import type { SignInOptions, SignInReturnTo } from '../auth/EchoSession'
import type { EchoUser } from '../auth/echoUser'
import type { ResolvedEchoConfig } from '../config'
import { userMessageOf, type EchoErrorData } from '../errors'
import type { AuthStatus } from '../store/authSlice'
import type { EchoStore } from '../store/createEchoStore'
import { runtimeOf } from '../store/EchoRuntime'
import type { EchoRootState } from '../store/echoReducer'
import {
  quietWhileReconnecting,
  selectCredit,
  selectIsBalanceLoading,
  selectIsLowBalance,
  selectIsSpendLimitReached,
} from '../store/selectors'
import type { TopUpState } from '../store/money/moneySlice'
import {
  createPaymentLink,
  getToken,
  refreshBalance,
  signIn,
  signOut,
  type CreatePaymentLinkOptions,
} from '../store/thunks'
import { openCheckout, type OpenCheckoutOptions } from './openCheckout'

/** What `useEcho()` returns. */
export interface UseEchoResult {
  user: EchoUser | null
  status: AuthStatus
  isAuthenticated: boolean
  isLoading: boolean
  /**
   * A refresh could not reach Echo (offline, Echo down): the user is still signed in and the session
   * is trying again. Show it quietly ("Reconnecting…"), not as an error.
   */
  isReconnecting: boolean
  /**
   * A sign-in this page started is under way: in its window (`status` stays `unauthenticated`, so
   * the page shows what it showed), or leaving for Echo (`status` is `loading`).
   */
  isSigningIn: boolean
  /**
   * The auth error first, then the balance error, then the payment error, as a sentence for the
   * user (Echo's own words when its answer said them: `EchoError.userMessage`); `null` when all is well.
   */
  error: string | null
  balance: Balance | null
  freeTierBalance: FreeTierBalance | null
  /**
   * What the user can spend, in US dollars: the paid balance and the free tier the router can still
   * draw, together; `null` until both have arrived, so a header shows one figure, once.
   */
  credit: number | null
  /** Signed in, and the paid balance or the free tier has not arrived yet. */
  isBalanceLoading: boolean
  /** Echo answered 402: the user's credit is spent. */
  isInsufficientFunds: boolean
  /** The credit is known and under `EchoConfig.lowBalanceAt` ($1.00 unless the app says otherwise). */
  isLowBalance: boolean
  /**
   * Today's spend in this app reached the daily limit: billed calls are refused before they are
   * sent (`reason: 'spend-limit'`) until the user raises it (`useEchoSpend()`) or the day ends.
   */
  isSpendLimitReached: boolean
  /** A top-up after checkout: `waiting` for the credits, `credited` with the amount, or `late`; `null` before any. */
  topUp: TopUpState | null
  /**
   * Signs in: by leaving the page for Echo, or in a window of its own (`{ popup: true }`, or
   * `EchoConfig.signIn: 'popup'`), which resolves once signed in. Call it from a click.
   */
  signIn: (options?: SignInOptions) => Promise<void>
  /**
   * What the app handed to the sign-in that completed on this page (`signIn({ returnTo })`), such as
   * the draft the user was typing before a redirect took the page away; `null` otherwise.
   */
  returnTo: SignInReturnTo | null
  signOut: () => Promise<void>
  /** Refetches the balance; rejects with `Not authenticated` when nobody is signed in. */
  refreshBalance: () => Promise<Balance>
  /**
   * Creates a payment link and resolves to its URL; rejects with `Not authenticated` when nobody
   * is signed in. `description` defaults to `Echo Credits`, `successUrl` to the page origin. With
   * `{ checkoutIn }`, the success URL is marked so that checkout's return tells the app's other
   * tabs at once and, in a tab the app opened, closes itself (what `openCheckout` does for you).
   */
  createPaymentLink: (
    amount: number,
    description?: string,
    successUrl?: string,
    options?: CreatePaymentLinkOptions,
  ) => Promise<string>
  /**
   * Echo's checkout from your own button, as `<EchoTopUp>` opens it: call it in the click handler.
   * A new tab by default, opened at once (no popup blocker) and closed by itself once paid, while
   * this tab shows the new balance; `{ checkoutIn: 'this-tab' }` for this tab.
   */
  openCheckout: (
    amount: number,
    options?: OpenCheckoutOptions & { description?: string; successUrl?: string },
  ) => Promise<void>
  /** The access token, refreshed first if it has expired; `null` when nobody is signed in. */
  getToken: () => Promise<string | null>
  config: ResolvedEchoConfig
}

/** An error as a person reads it: Echo's own sentence when its answer had one. */
const shownError = (error: EchoErrorData | null): string | null => (error === null ? null : userMessageOf(error))

/** Everything useEcho shows, picked so that a token refresh alone changes none of it. */
const selectEchoView = (state: EchoRootState) => selectView(state, state.echo)

const selectView = (state: EchoRootState, { auth, balance }: EchoRootState['echo']) => ({
  user: auth.user,
  status: auth.status,
  isReconnecting: auth.isReconnecting,
  isSigningIn: auth.isSigningIn,
  authError: auth.error,
  balance: balance.balance,
  freeTierBalance: balance.freeTierBalance,
  credit: selectCredit(state),
  isBalanceLoading: selectIsBalanceLoading(state),
  balanceError: balance.error,
  paymentError: balance.paymentError,
  isInsufficientFunds: balance.isInsufficientFunds,
  isLowBalance: selectIsLowBalance(state),
  isSpendLimitReached: selectIsSpendLimitReached(state),
  topUp: state.echo.money.topUp,
  returnTo: auth.returnTo,
})

/** The store and the resolved config of the nearest `<EchoProvider>`: its store's runtime holds the config. */
export interface EchoContextValue {
  store: EchoStore
  config: ResolvedEchoConfig
}

/** The nearest provider's store and config; outside one, throws `useEcho must be used within an EchoProvider`. */
export function useEchoContext(): EchoContextValue {
  const store = useEchoStore() as EchoStore
  return useMemo(() => ({ store, config: runtimeOf(store.dispatch).config }), [store])
}

/**
 * The signed-in user, the balance and the actions, from the nearest `<EchoProvider>`. Re-renders
 * only when what it returns changes: a silent token refresh re-renders nothing.
 *
 * @example
 * const { user, balance, signIn } = useEcho()
 */
export function useEcho(): UseEchoResult {
  const { store, config } = useEchoContext()
  const view = useEchoSelector(selectEchoView, shallowEqual)
  const actions = useMemo(
    () => ({
      signIn: (options?: SignInOptions) => store.dispatch(signIn(options)),
      signOut: () => store.dispatch(signOut()),
      refreshBalance: () => store.dispatch(refreshBalance()),
      // The request's own defaults apply: `Echo Credits`, and the page origin.
      createPaymentLink: (
        amount: number,
        description?: string,
        successUrl?: string,
        options?: CreatePaymentLinkOptions,
      ) => store.dispatch(createPaymentLink({ amount, description, successUrl }, options)),
      openCheckout: (
        amount: number,
        {
          description,
          successUrl,
          ...options
        }: OpenCheckoutOptions & { description?: string; successUrl?: string } = {},
      ) => openCheckout(store, { amount, description, successUrl }, options),
      getToken: () => store.dispatch(getToken()),
    }),
    [store],
  )
  const { user, status, isReconnecting, authError, balanceError, paymentError } = view
  return {
    user,
    status,
    isAuthenticated: status === 'authenticated',
    isLoading: status === 'loading',
    isReconnecting,
    isSigningIn: view.isSigningIn,
    error: shownError(authError ?? quietWhileReconnecting(balanceError, isReconnecting) ?? paymentError),
    balance: view.balance,
    freeTierBalance: view.freeTierBalance,
    credit: view.credit,
    isBalanceLoading: view.isBalanceLoading,
    isInsufficientFunds: view.isInsufficientFunds,
    isLowBalance: view.isLowBalance,
    isSpendLimitReached: view.isSpendLimitReached,
    topUp: view.topUp,
    returnTo: view.returnTo,
    ...actions,
    config,
  }
}
