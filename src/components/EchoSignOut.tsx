import { useState, type ReactElement, type ReactNode } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { selectIsAuthenticated } from '../store/selectors'
import { signOut } from '../store/thunks'
import { useAnnounce } from './EchoAnnouncer'
import { useEchoContext } from './useEcho'

const SIGNING_OUT = 'Signing out...'

/** Props of {@link EchoSignOut}. */
export interface EchoSignOutProps {
  onSuccess?: () => void
  onError?: (error: Error) => void
  className?: string
  /** The button's label instead of `Sign out`. */
  children?: ReactNode
}

/**
 * The sign-out button: `Sign out`, `Signing out...` while busy; disabled while nobody is signed in.
 * Signing out here signs the other tabs out too.
 *
 * @example
 * <SignedIn><EchoSignOut /></SignedIn>
 */
export function EchoSignOut({ onSuccess, onError, className, children }: EchoSignOutProps): ReactElement {
  const { store } = useEchoContext()
  const isAuthenticated = useEchoSelector(selectIsAuthenticated)
  const announce = useAnnounce()
  const [busy, setBusy] = useState(false)
  const leave = async () => {
    // Busy, the button keeps the focus and its press does nothing.
    if (busy) return
    setBusy(true)
    announce(SIGNING_OUT)
    try {
      await store.dispatch(signOut())
      onSuccess?.()
    } catch (error) {
      onError?.(error instanceof Error ? error : new Error('Sign out failed'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <button
      type="button"
      className={className}
      disabled={!isAuthenticated && !busy}
      aria-disabled={busy}
      aria-busy={busy}
      onClick={() => void leave()}
    >
      {busy ? SIGNING_OUT : (children ?? 'Sign out')}
    </button>
  )
}
