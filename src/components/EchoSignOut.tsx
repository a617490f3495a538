import { useState, type ReactElement, type ReactNode } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { selectIsAuthenticated } from '../store/selectors'
import { signOut } from '../store/thunks'
import { useEchoContext } from './EchoContext'

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
  const [busy, setBusy] = useState(false)
  const leave = async () => {
    setBusy(true)
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
    <button type="button" className={className} disabled={busy || !isAuthenticated} aria-busy={busy} onClick={() => void leave()}>
      {busy ? 'Signing out...' : (children ?? 'Sign out')}
    </button>
  )
}
