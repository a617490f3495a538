import { useId, useState, type ReactElement } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { isChargeableAmount } from '../api/echoRequests'
import type { CheckoutIn } from '../store/money/topUpWatch'
import { EchoError } from '../errors'
import type { EchoRootState } from '../store/echoReducer'
import type { TopUpState } from '../store/money/moneySlice'
import { selectIsAuthenticated, selectIsInsufficientFunds } from '../store/selectors'
import { creditsAdded, OUT_OF_CREDITS, TOP_UP_LATE, useAnnounce } from './EchoAnnouncer'
import { useEchoContext } from './useEcho'
import { openCheckout } from './openCheckout'

/** Why `Add credits` does nothing for the amount typed. */
const AMOUNT_HINT = 'Enter an amount of at least $1.'
/** Said while the payment link is made. */
const OPENING_CHECKOUT = 'Opening checkout…'
/** Shown while checkout's credits are on their way. */
const ADDING_CREDITS = 'Payment received, adding credits…'

const selectTopUp = (state: EchoRootState) => state.echo.money.topUp

/** Where a top-up after checkout stands, in words (said by the provider's announcer when it ends). */
function topUpText(topUp: TopUpState): string {
  if (topUp.status === 'waiting') return ADDING_CREDITS
  return topUp.status === 'late' ? TOP_UP_LATE : creditsAdded(topUp.amount)
}

/** Props of {@link EchoTopUp}. */
export interface EchoTopUpProps {
  className?: string
  /** The amount the field starts with, in US dollars. Defaults to 10. */
  defaultAmount?: number
  /** Shown on the checkout page. Defaults to `Echo Credits`. */
  description?: string
  /** Where checkout returns to. Defaults to the page origin. */
  successUrl?: string
  /** Render only once Echo has answered 402 (out of credits). */
  onlyWhenOutOfCredits?: boolean
  /**
   * Where checkout opens: `new-tab` (the default) or `this-tab`. A checkout tab closes itself once
   * paid, and this tab shows the new balance at once.
   */
  checkoutIn?: CheckoutIn
  /**
   * Opens the payment link yourself (a router, a test). Left out, the link opens in a new tab (one
   * opened at the click, so no popup blocker stops it) or, with `checkoutIn="this-tab"`, in this one.
   */
  navigate?: (url: string) => void
  onError?: (error: Error) => void
}

/**
 * Top up: an amount in US dollars and `Add credits`, which opens Echo's checkout. When Echo has
 * answered 402 it says the credit is spent. `Add credits` stays focusable while busy or while the
 * amount is refused (`aria-disabled`), and the reason shows next to the field; a failure shows
 * under the button, tied to it (`aria-describedby`), and reaches `useEcho().error`.
 *
 * @example
 * <EchoTopUp defaultAmount={20} />
 */
export function EchoTopUp({
  className,
  defaultAmount = 10,
  description,
  successUrl,
  onlyWhenOutOfCredits = false,
  checkoutIn = 'new-tab',
  navigate,
  onError,
}: EchoTopUpProps): ReactElement | null {
  const { store } = useEchoContext()
  const announce = useAnnounce()
  const isAuthenticated = useEchoSelector(selectIsAuthenticated)
  const outOfCredits = useEchoSelector(selectIsInsufficientFunds)
  const topUp = useEchoSelector(selectTopUp)
  const inputId = useId()
  const hintId = useId()
  const problemId = useId()
  const [amountText, setAmountText] = useState(String(defaultAmount))
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  if (onlyWhenOutOfCredits && !outOfCredits) return null

  const amount = amountText.trim() === '' ? Number.NaN : Number(amountText)
  const refused = !isChargeableAmount(amount)
  const addCredits = async () => {
    // A busy or refused button stays focusable (it says why); its press does nothing.
    if (busy || refused) return
    const opening = openCheckout(store, { amount, description, successUrl }, { checkoutIn, navigate })
    setBusy(true)
    setProblem(null)
    announce(OPENING_CHECKOUT)
    try {
      await opening
    } catch (error) {
      const failure = error instanceof Error ? error : new Error('The payment link could not be created')
      // Shown here, tied to the button; it is said once, as useEcho().error (which apps show as an alert).
      setProblem(failure instanceof EchoError ? failure.userMessage : failure.message)
      onError?.(failure)
    } finally {
      setBusy(false)
    }
  }

  const describedBy =
    [refused ? hintId : null, problem !== null ? problemId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={className} data-echo-top-up="">
      {/* Said once by the provider's announcer, however many top-ups are mounted: not a live region here. */}
      {outOfCredits && <p data-echo-top-up-out-of-credits="">{OUT_OF_CREDITS}</p>}
      <label htmlFor={inputId}>Amount (USD)</label>
      <input
        id={inputId}
        type="number"
        inputMode="decimal"
        min={1}
        step="any"
        value={amountText}
        aria-invalid={refused}
        aria-describedby={refused ? hintId : undefined}
        onChange={(event) => setAmountText(event.target.value)}
      />
      <button
        type="button"
        disabled={!isAuthenticated}
        aria-disabled={busy || refused}
        aria-busy={busy}
        aria-describedby={describedBy}
        onClick={() => void addCredits()}
      >
        Add credits
      </button>
      {refused && (
        <p id={hintId} data-echo-top-up-hint="">
          {AMOUNT_HINT}
        </p>
      )}
      {problem !== null && (
        <p id={problemId} data-echo-top-up-problem="">
          {problem}
        </p>
      )}
      {topUp !== null && <p data-echo-top-up-status={topUp.status}>{topUpText(topUp)}</p>}
    </div>
  )
}
