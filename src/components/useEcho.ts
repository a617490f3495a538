import { useMemo } from 'react'
import { shallowEqual } from 'react-redux'

import { useEchoSelector } from '../api/query/echoReduxContext'
import type { Balance, FreeTierBalance } from '../api/wireTypes'
import type { EchoUser } from '../auth/echoUser'
import type { ResolvedEchoConfig } from '../config'
import type { AuthStatus } from '../store/authSlice'
import type { EchoRootState } from '../store/echoReducer'
import { quietWhileReconnecting } from '../store/selectors'
import { createPaymentLink, getToken, refreshBalance, signIn, signOut } from '../store/thunks'
import { useEchoContext } from './EchoContext'

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
  /** The auth error first, then the balance error, then the payment error; `null` when all is well. */
  error: string | null
  balance: Balance | null
  freeTierBalance: FreeTierBalance | null
  /** Echo answered 402: the user's credit is spent. */
  isInsufficientFunds: boolean
  signIn(): Promise<void>
  signOut(): Promise<void>
  /** Refetches the balance; rejects with `Not authenticated` when nobody is signed in. */
  refreshBalance(): Promise<Balance>
  /**
   * Creates a payment link and resolves to its URL; rejects with `Not authenticated` when nobody
   * is signed in. `description` defaults to `Echo Credits`, `successUrl` to the page origin.
   */
  createPaymentLink(amount: number, description?: string, successUrl?: string): Promise<string>
  /** The access token, refreshed first if it has expired; `null` when nobody is signed in. */
  getToken(): Promise<string | null>
  config: ResolvedEchoConfig
}

/** Everything useEcho shows, picked so that a token refresh alone changes none of it. */
const selectEchoView = ({ echo: { auth, balance } }: EchoRootState) => ({
  user: auth.user,
  status: auth.status,
  isReconnecting: auth.isReconnecting,
  authError: auth.error,
  balance: balance.balance,
  freeTierBalance: balance.freeTierBalance,
  balanceError: balance.error,
  paymentError: balance.paymentError,
  isInsufficientFunds: balance.isInsufficientFunds,
})

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
      signIn: () => store.dispatch(signIn()),
      signOut: () => store.dispatch(signOut()),
      refreshBalance: () => store.dispatch(refreshBalance()),
      // The request's own defaults apply: `Echo Credits`, and the page origin (SPEC §5).
      createPaymentLink: (amount: number, description?: string, successUrl?: string) => store.dispatch(createPaymentLink({ amount, description, successUrl })),
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
    error: (authError ?? quietWhileReconnecting(balanceError, isReconnecting) ?? paymentError)?.message ?? null,
    balance: view.balance,
    freeTierBalance: view.freeTierBalance,
    isInsufficientFunds: view.isInsufficientFunds,
    ...actions,
    config,
  }
}
