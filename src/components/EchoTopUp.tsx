import { useId, useState, type ReactElement } from 'react'

import { useEchoSelector } from '../api/echoReduxContext'
import type { EchoRootState } from '../store/echoReducer'
import { selectIsAuthenticated } from '../store/selectors'
import { createPaymentLink } from '../store/thunks'
import { useEchoContext } from './EchoContext'

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
  /** Opens the payment link. Defaults to `window.location.assign`. */
  navigate?: (url: string) => void
  onError?: (error: Error) => void
}

const selectIsInsufficientFunds = (state: EchoRootState) => state.echo.balance.isInsufficientFunds

/** A number of US dollars that can be charged: finite and at least 1. */
function isChargeableAmount(amount: number): boolean {
  return Number.isFinite(amount) && amount >= 1
}

/**
 * Top up: an amount in US dollars and `Add credits`, which opens Echo's checkout. When Echo has
 * answered 402 it says the credit is spent.
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
  navigate = (url) => window.location.assign(url),
  onError,
}: EchoTopUpProps): ReactElement | null {
  const { store } = useEchoContext()
  const isAuthenticated = useEchoSelector(selectIsAuthenticated)
  const outOfCredits = useEchoSelector(selectIsInsufficientFunds)
  const inputId = useId()
  const [amountText, setAmountText] = useState(String(defaultAmount))
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  if (onlyWhenOutOfCredits && !outOfCredits) return null

  const amount = amountText.trim() === '' ? Number.NaN : Number(amountText)
  const addCredits = async () => {
    setBusy(true)
    setProblem(null)
    try {
      navigate(await store.dispatch(createPaymentLink({ amount, description, successUrl })))
    } catch (error) {
      const failure = error instanceof Error ? error : new Error('The payment link could not be created')
      setProblem(failure.message)
      onError?.(failure)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className={className} data-echo-top-up="">
      {outOfCredits && <p role="status">You are out of credits. Add credits to keep going.</p>}
      <label htmlFor={inputId}>Amount (USD)</label>
      <input id={inputId} type="number" inputMode="decimal" min={1} step="any" value={amountText} onChange={(event) => setAmountText(event.target.value)} />
      <button type="button" disabled={busy || !isAuthenticated || !isChargeableAmount(amount)} aria-busy={busy} onClick={() => void addCredits()}>
        Add credits
      </button>
      {problem !== null && <p role="alert">{problem}</p>}
    </div>
  )
}
