import type { ReactElement } from 'react'

import { formatUsd } from './EchoBalance'
import { useEchoSpend } from './useEchoSpend'

/** Props of {@link EchoSpend}. */
export interface EchoSpendProps {
  className?: string
  /** Also say what the last answer cost. */
  last?: boolean
}

/**
 * What the user spent in this app today (`Today: $0.23`, with the daily limit when there is one),
 * and with `last` what the last answer cost. Nothing before today's figure is known. A `<span>`
 * (phrasing content), so it fits in a paragraph, a button or a table cell of the app's.
 *
 * @example
 * <SignedIn><EchoSpend last /></SignedIn>
 */
export function EchoSpend({ className, last = false }: EchoSpendProps): ReactElement | null {
  const { spentToday, dailyLimit, lastCharge } = useEchoSpend()
  if (spentToday === null) return null
  const charge =
    lastCharge === null
      ? null
      : lastCharge.calls === 1
        ? `Last answer: ${formatUsd(lastCharge.amount)}`
        : `Last ${lastCharge.calls} answers together: ${formatUsd(lastCharge.amount)}`
  return (
    <span className={className} data-echo-spend="">
      <span data-echo-spend-today="">
        Today: {formatUsd(spentToday)}
        {dailyLimit !== null && ` of ${formatUsd(dailyLimit)}`}
      </span>
      {last && charge !== null && (
        <>
          {' · '}
          <span data-echo-spend-last="">{charge}</span>
        </>
      )}
    </span>
  )
}
