import type { ReactElement } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { formatUsd } from '../formatUsd'
import { freeTierLeftOf, hasFreeTier, paidBalanceOf } from '../store/selectors'
import type { EchoRootState } from '../store/echoReducer'
import { selectBalance, selectFreeTierBalance, selectIsBalanceLoading } from '../store/selectors'
import { visuallyHidden } from './visuallyHidden'

/** Props of {@link EchoBalance}. */
export interface EchoBalanceProps {
  className?: string
  /**
   * Say every change to screen readers (`aria-live="polite"`): give it to the one balance a user
   * watches, not to every copy, or one change is said once per copy. Off by default.
   */
  live?: boolean
}

/** What shows when the balance could not be loaded (the reason is in `useEcho().error`). */
const BALANCE_FAILED = 'Balance unavailable'

const selectBalanceStatus = (state: EchoRootState) => state.echo.balance.status

/**
 * The paid balance in US dollars and, when the app has a free tier (a spend pool), what is left of
 * it (never below $0.00), shown together once both are in (`…` until then), each labelled for screen readers
 * (`Balance $12.34 Free tier $0.50`). Subscribes to the balance alone: a token refresh does not re-render it. A field
 * the server left out or sent oddly shows as `—`.
 *
 * @example
 * <SignedIn><EchoBalance /></SignedIn>
 */
export function EchoBalance({ className, live = false }: EchoBalanceProps): ReactElement {
  const balance = useEchoSelector(selectBalance)
  const freeTier = useEchoSelector(selectFreeTierBalance)
  const status = useEchoSelector(selectBalanceStatus)
  // Both figures at once: nothing is shown until the paid balance and the free tier are both in.
  const loading = useEchoSelector(selectIsBalanceLoading)
  const failed = status === 'failed' && balance === null
  return (
    <span
      className={className}
      aria-busy={loading}
      aria-live={live ? 'polite' : undefined}
      data-echo-balance={failed ? 'failed' : ''}
    >
      <span style={visuallyHidden}>Balance </span>
      <span data-echo-balance-paid="">
        {failed ? BALANCE_FAILED : balance !== null && !loading ? formatUsd(paidBalanceOf(balance)) : '…'}
      </span>
      {freeTier !== null && hasFreeTier(freeTier) && !loading && (
        <span data-echo-balance-free=""> Free tier {formatUsd(freeTierLeftOf(freeTier))}</span>
      )}
    </span>
  )
}
