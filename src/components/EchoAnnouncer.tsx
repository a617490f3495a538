import { createContext, useCallback, useContext, useEffect, useState, type ReactElement, type ReactNode } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { SESSION_ENDED } from '../auth/sessionErrors'
import { SAID_TO_PEOPLE } from '../errorReasons'
import { formatUsd } from './EchoBalance'
import type { EchoRootState } from '../store/echoReducer'
import { selectIsInsufficientFunds, selectIsLowBalance, selectIsSpendLimitReached } from '../store/selectors'
import { visuallyHidden } from './visuallyHidden'

/** What the announcer says when Echo answers 402. */
export const OUT_OF_CREDITS = SAID_TO_PEOPLE['insufficient-funds']!
/** What the announcer says when the credit falls under `EchoConfig.lowBalanceAt`. */
export const LOW_BALANCE = 'Your Echo credit is running low.'
/** What the announcer says, and the account panel shows, when today's spend reaches the daily limit. */
export const LIMIT_REACHED = SAID_TO_PEOPLE['spend-limit']!
/** Said when checkout's credits arrive: `Credits added: +$5.00`. */
export const creditsAdded = (amount: number | null): string =>
  amount === null ? 'Credits added.' : `Credits added: +${formatUsd(amount)}.`
/** Said when a paid top-up's credits are slow to arrive. */
export const TOP_UP_LATE = 'Your payment went through, but the credits have not arrived yet. This page keeps checking.'

/** How long a message stays in the live region; the same words said again after that are a new event. */
const SHOWN_MS = 7_000

const AnnounceContext = createContext<(message: string) => void>(() => undefined)

/** Says `message` once to screen readers, through the provider's one live region. */
export function useAnnounce(): (message: string) => void {
  return useContext(AnnounceContext)
}

const selectSessionEnded = (state: EchoRootState) => state.echo.auth.error?.reason === 'session-ended'
const selectTopUp = (state: EchoRootState) => state.echo.money.topUp

/**
 * The package's one voice for status messages (WCAG 4.1.3): an always-present polite live region
 * per provider, filled once per event however many components are mounted. It says by itself that
 * the user is out of credits and that the session has ended; components say the rest (a panel
 * opening by itself, a button busy) through {@link useAnnounce}. The same words asked for twice at
 * once (two `<EchoAccount>`s) are said once. Each message is a node of its own and only additions
 * are read: a message that follows another is said alone, never with the one before it again.
 */
export function EchoAnnouncer({ children }: { children?: ReactNode }): ReactElement {
  const [messages, setMessages] = useState<readonly string[]>([])
  const announce = useCallback(
    (message: string) => setMessages((said) => (said.includes(message) ? said : [...said, message])),
    [],
  )
  const outOfCredits = useEchoSelector(selectIsInsufficientFunds)
  const sessionEnded = useEchoSelector(selectSessionEnded)
  const lowBalance = useEchoSelector(selectIsLowBalance)
  const limitReached = useEchoSelector(selectIsSpendLimitReached)
  const topUp = useEchoSelector(selectTopUp)
  // Seen while rendering, before the components below announce what follows from it (a panel opening).
  const [seen, setSeen] = useState({ outOfCredits, sessionEnded, lowBalance, limitReached, topUp })
  if (
    seen.outOfCredits !== outOfCredits ||
    seen.sessionEnded !== sessionEnded ||
    seen.lowBalance !== lowBalance ||
    seen.limitReached !== limitReached ||
    seen.topUp !== topUp
  ) {
    setSeen({ outOfCredits, sessionEnded, lowBalance, limitReached, topUp })
    const happened = [
      outOfCredits && !seen.outOfCredits && OUT_OF_CREDITS,
      sessionEnded && !seen.sessionEnded && SESSION_ENDED.message,
      // Low, not yet out: the wall itself has its own words.
      lowBalance && !seen.lowBalance && !outOfCredits && LOW_BALANCE,
      limitReached && !seen.limitReached && LIMIT_REACHED,
      topUp?.status === 'late' && seen.topUp?.status !== 'late' && TOP_UP_LATE,
      topUp?.status === 'credited' && seen.topUp?.status !== 'credited' && creditsAdded(topUp.amount),
    ]
    for (const message of happened) if (message) announce(message)
  }

  // Emptied after a while, so the next event is a change a screen reader notices, even in the same words.
  useEffect(() => {
    if (messages.length === 0) return undefined
    const timer = setTimeout(() => setMessages([]), SHOWN_MS)
    return () => clearTimeout(timer)
  }, [messages])

  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      {/* No role: an app's own role="status" elements stay the only ones its tests find by role. */}
      <div
        aria-live="polite"
        aria-atomic="false"
        aria-relevant="additions"
        style={visuallyHidden}
        data-echo-announcer=""
      >
        {messages.map((message) => (
          <div key={message}>{message}</div>
        ))}
      </div>
    </AnnounceContext.Provider>
  )
}
