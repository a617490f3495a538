import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactElement } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { displayNameOf } from '../auth/echoUser'
import {
  selectCredit,
  selectEchoUser,
  selectIsAuthenticated,
  selectIsInsufficientFunds,
  selectIsLowBalance,
  selectIsReconnecting,
  selectIsSpendLimitReached,
} from '../store/selectors'
import { formatUsd } from './EchoBalance'
import { DailyLimitForm } from './DailyLimitForm'
import { useAnnounce } from './EchoAnnouncer'
import { EchoBalance } from './EchoBalance'
import { EchoSpend } from './EchoSpend'
import { EchoSignIn } from './EchoSignIn'
import { EchoSignOut } from './EchoSignOut'
import { EchoTopUp } from './EchoTopUp'
import { Logo } from './Logo'
import { useFloatingPanel } from './useFloatingPanel'
import { useFocusKeptOnReplace } from './useFocusKeptOnReplace'
import { visuallyHidden } from './visuallyHidden'

/** Said when a 402 opens the panel by itself (the out-of-credits line is said by the announcer). */
const PANEL_OPENED = 'Your Echo account is open to add credits.'
/** Said when the daily limit opens the panel by itself (the limit's own line is said by the announcer). */
const PANEL_OPENED_AT_LIMIT = 'Your Echo account is open to raise the limit.'

/** Props of {@link EchoAccount}. */
export interface EchoAccountProps {
  /**
   * On the root element; its parts carry `data-echo-account-button` and `data-echo-account-panel` to style by. A
   * panel the app's CSS leaves unplaced floats below the button, in the browser's top layer.
   */
  className?: string
  /**
   * Leaves for Echo's sign-in page yourself (its sign-in button's `navigate`): a router, or `echoSignIn().navigate`
   * in a test.
   */
  signInNavigate?: (url: string) => void
  /** Its sign-in button signs in in a window of its own (`<EchoSignIn popup>`); defaults to `EchoConfig.signIn`. */
  popup?: boolean | 'only'
}

/**
 * One control for an app bar. Signed out: the sign-in button. Signed in: a button showing the
 * credit left that opens a panel with the balance, the top-up and the sign-out; after a 402 the
 * panel opens by itself with the out-of-credits line (said once, without taking the focus). While
 * the session cannot reach Echo (offline, Echo down) the button says `Reconnecting…` beside the
 * credit: the user is still signed in. A real button with `aria-expanded`; Escape closes the panel
 * from anywhere in it and puts the focus back on the button; when the session ends (or begins)
 * with the focus inside, the focus moves to the control that replaces the one it was on. Injects
 * no CSS: the closed panel is not rendered, and where the open one sits is the app's to style; left
 * unstyled, it floats below the button over the page (a popover in the top layer), never moving it.
 *
 * @example
 * <header><h1>My app</h1><EchoAccount className="account" /></header>
 */
export function EchoAccount({ className, signInNavigate, popup }: EchoAccountProps): ReactElement {
  const isAuthenticated = useEchoSelector(selectIsAuthenticated)
  const user = useEchoSelector(selectEchoUser)
  const credit = useEchoSelector(selectCredit)
  const outOfCredits = useEchoSelector(selectIsInsufficientFunds)
  const reconnecting = useEchoSelector(selectIsReconnecting)
  const lowBalance = useEchoSelector(selectIsLowBalance)
  const limitReached = useEchoSelector(selectIsSpendLimitReached)
  const announce = useAnnounce()
  // Closed, the panel is not rendered: each opening shows it afresh (no error left from an earlier top-up).
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const root = useRef<HTMLDivElement>(null)
  const panel = useRef<HTMLDivElement>(null)
  const panelId = useId()
  const focus = useFocusKeptOnReplace(root, isAuthenticated)
  useFloatingPanel(panel, button, open && isAuthenticated)

  // A 402 (or the daily limit) opens the panel on its own, so the top-up (or the limit) is offered
  // where the user looks for it.
  const [wasAtWall, setWasAtWall] = useState({ outOfCredits, limitReached })
  const [openedByItself, setOpenedByItself] = useState<{ count: number; message: string }>({ count: 0, message: '' })
  if (outOfCredits !== wasAtWall.outOfCredits || limitReached !== wasAtWall.limitReached) {
    setWasAtWall({ outOfCredits, limitReached })
    const opening =
      outOfCredits && !wasAtWall.outOfCredits
        ? PANEL_OPENED
        : limitReached && !wasAtWall.limitReached
          ? PANEL_OPENED_AT_LIMIT
          : null
    if (opening !== null && isAuthenticated && !open) {
      setOpen(true)
      setOpenedByItself(({ count }) => ({ count: count + 1, message: opening }))
    }
  }
  useEffect(() => {
    if (openedByItself.count > 0) announce(openedByItself.message)
  }, [openedByItself, announce])

  // A press outside closes the panel, as a menu would.
  useEffect(() => {
    if (!open) return undefined
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', closeOutside)
    return () => document.removeEventListener('pointerdown', closeOutside)
  }, [open])

  if (!isAuthenticated) {
    // Whoever signs in next starts with the panel closed.
    if (open) setOpen(false)
    return (
      <div ref={root} className={className} data-echo-account="signed-out" {...focus}>
        <EchoSignIn
          {...(signInNavigate === undefined ? {} : { navigate: signInNavigate })}
          {...(popup === undefined ? {} : { popup })}
        />
      </div>
    )
  }

  // Escape closes the panel from anywhere inside it (its amount field too) and puts the focus back on the button.
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return
    event.preventDefault()
    event.stopPropagation()
    setOpen(false)
    button.current?.focus()
  }
  const shownCredit = credit === null ? '…' : formatUsd(credit, { short: true })
  return (
    <div
      ref={root}
      className={className}
      data-echo-account={open ? 'open' : 'closed'}
      onKeyDown={closeOnEscape}
      {...focus}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={`Echo credits ${shownCredit}${reconnecting ? ', reconnecting' : ''}`}
        onClick={() => setOpen(!open)}
        data-echo-account-button=""
      >
        <Logo /> {shownCredit}
        {reconnecting && <span data-echo-account-note="reconnecting">Reconnecting…</span>}
      </button>
      {/* Low, before the wall: a quiet way to the top-up. */}
      {lowBalance && !outOfCredits && !open && (
        <button type="button" onClick={() => setOpen(true)} data-echo-account-nudge="">
          Low balance: add credits
        </button>
      )}
      {open && (
        <div ref={panel} id={panelId} role="region" aria-label="Echo account" data-echo-account-panel="">
          {user !== null && (
            <p data-echo-account-user="">
              <span style={visuallyHidden}>Signed in as </span>
              {displayNameOf(user)}
            </p>
          )}
          <p data-echo-account-balance="">
            <EchoBalance />
          </p>
          <p data-echo-account-spend="">
            <EchoSpend last />
          </p>
          <EchoTopUp />
          <DailyLimitForm />
          <EchoSignOut />
        </div>
      )}
    </div>
  )
}
