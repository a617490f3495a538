import type { ReactElement } from 'react'

import { useEchoSelector } from '../api/echoReduxContext'
import type { EchoRootState } from '../store/echoReducer'
import { selectBalance, selectFreeTierBalance } from '../store/selectors'

/** Props of {@link EchoBalance}. */
export interface EchoBalanceProps {
  className?: string
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** Money as US dollars with two decimals: `$12.34`. */
export function formatUsd(amount: number): string {
  return usd.format(amount)
}

const selectBalanceStatus = (state: EchoRootState) => state.echo.balance.status

/**
 * The paid balance in US dollars and, when the app has a free tier, what is left of it (never
 * below $0.00). Subscribes to the balance alone: a token refresh does not re-render it.
 *
 * @example
 * <SignedIn><EchoBalance /></SignedIn>
 */
export function EchoBalance({ className }: EchoBalanceProps): ReactElement {
  const balance = useEchoSelector(selectBalance)
  const freeTier = useEchoSelector(selectFreeTierBalance)
  const loading = useEchoSelector(selectBalanceStatus) === 'loading' && balance === null
  return (
    <span className={className} aria-busy={loading} aria-live="polite" data-echo-balance="">
      <span data-echo-balance-paid="">{balance === null ? '…' : formatUsd(balance.balance)}</span>
      {freeTier !== null && (
        <span data-echo-balance-free="">
          {' '}
          Free tier {formatUsd(Math.max(freeTier.userSpendInfo.amountLeft, 0))}
        </span>
      )}
    </span>
  )
}
