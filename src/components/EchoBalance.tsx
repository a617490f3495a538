import type { ReactElement } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { freeTierLeftOf, hasFreeTier, paidBalanceOf } from '../store/money/credit'
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

/** What an amount that is not known shows as: never `$NaN`. */
const UNKNOWN_AMOUNT = '—'
/** The smallest amount shown in figures; anything smaller, but not zero, shows as less than it. */
const SMALLEST_SHOWN_USD = 0.00000001

/** Options of {@link formatUsd}. */
export interface FormatUsdOptions {
  /** Where space is short (a button): an amount under a cent shows as `< $0.01`. */
  short?: boolean
}

/**
 * Money as US dollars: `$12.34`, `$1,234.50`, `-$1.00`. An amount under a cent is never shown as
 * `$0.00`: it keeps two significant digits (`$0.0031`, `$0.0000032`), or reads `< $0.01` with
 * `{ short: true }`. `—` for anything that is not a finite number (a field a server left out, say).
 * Written by hand rather than with `Intl.NumberFormat`, whose first currency format loads locale
 * data at a cost a page load feels.
 */
export function formatUsd(amount: number | null | undefined, { short = false }: FormatUsdOptions = {}): string {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return UNKNOWN_AMOUNT
  const sign = amount < 0 ? '-' : ''
  const size = Math.abs(amount)
  if (size === 0 || size >= 0.01) {
    const [whole = '0', cents = '00'] = size.toFixed(2).split('.')
    return `${sign}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`
  }
  const closerToZeroThan = (limit: string) => (sign === '' ? `< $${limit}` : `> -$${limit}`)
  if (short) return closerToZeroThan('0.01')
  if (size < SMALLEST_SHOWN_USD) return closerToZeroThan(SMALLEST_SHOWN_USD.toFixed(8))
  // Two significant digits: 0.00000315 has its first at the 6th decimal, so 7 decimals.
  const decimals = Math.ceil(-Math.log10(size)) + 1
  return `${sign}$${size.toFixed(decimals).replace(/0+$/, '')}`
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
