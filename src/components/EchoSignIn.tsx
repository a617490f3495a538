import { useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { displayNameOf } from '../auth/echoUser'
import type { EchoUser } from '../auth/echoUser'
import { EchoError } from '../errors'
import type { EchoRootState } from '../store/echoReducer'
import { selectAuthStatus, selectEchoUser } from '../store/selectors'
import { signIn } from '../store/thunks'
import { useAnnounce } from './EchoAnnouncer'
import { useEchoContext } from './EchoContext'
import { Logo } from './Logo'

const selectArrivedBy = (state: EchoRootState) => state.echo.auth.arrivedBy
const selectAuthError = (state: EchoRootState) => state.echo.auth.error
const SIGNING_IN = 'Signing in...'

/** Props of {@link EchoSignIn}. */
export interface EchoSignInProps {
  /** Called once when a sign-in completes on this page (back from Echo, and signed in). */
  onSuccess?: (user: EchoUser) => void
  /** Called when the redirect to Echo cannot start, or the sign-in coming back fails. */
  onError?: (error: Error) => void
  className?: string
  /** The button's label instead of `Sign in`. */
  children?: ReactNode
  /**
   * Leaves for Echo's sign-in page at `url` yourself (a router, or `echoSignIn().navigate` in a
   * test). Defaults to `window.location.assign`.
   */
  navigate?: (url: string) => void
}

/**
 * The sign-in button: `Sign in`; `Signing in...` and disabled while loading (`aria-disabled`: it
 * keeps the focus, and a screen reader hears `Signing in...`); once signed in, `Signed in as` and
 * the user's name (or email).
 *
 * @example
 * <EchoSignIn onSuccess={(user) => console.log('Welcome', user.name)} />
 */
export function EchoSignIn({ onSuccess, onError, className, children, navigate }: EchoSignInProps): ReactElement {
  const { store } = useEchoContext()
  const announce = useAnnounce()
  // One field each, so a token refresh (which changes only the token) renders nothing here.
  const status = useEchoSelector(selectAuthStatus)
  const user = useEchoSelector(selectEchoUser)
  const error = useEchoSelector(selectAuthError)
  const arrivedBy = useEchoSelector(selectArrivedBy)
  const [starting, setStarting] = useState(false)
  const callbacks = useRef({ onSuccess, onError })
  const reported = useRef(false)

  useEffect(() => {
    callbacks.current = { onSuccess, onError }
  })

  // A sign-in that came back from Echo on this page, once it has settled: success or failure.
  useEffect(() => {
    if (reported.current || arrivedBy !== 'callback' || status === 'loading') return
    reported.current = true
    if (status === 'authenticated' && user !== null) callbacks.current.onSuccess?.(user)
    else if (error !== null) callbacks.current.onError?.(EchoError.fromJSON(error))
  }, [arrivedBy, status, user, error])

  if (status === 'authenticated' && user !== null) {
    return (
      <span className={className} data-echo-sign-in="signed-in">
        <Logo /> Signed in as {displayNameOf(user)}
      </span>
    )
  }

  const busy = starting || status === 'loading'
  const start = async () => {
    // Busy, the button stays focusable (so focus never falls to the page) and its press does nothing.
    if (busy) return
    setStarting(true)
    announce(SIGNING_IN)
    try {
      await store.dispatch(signIn({ navigate }))
    } catch (error) {
      setStarting(false)
      callbacks.current.onError?.(error instanceof Error ? error : new Error('Sign in failed'))
    }
  }
  return (
    <button
      type="button"
      className={className}
      aria-disabled={busy}
      aria-busy={busy}
      onClick={() => void start()}
      data-echo-sign-in={busy ? 'loading' : 'signed-out'}
    >
      <Logo /> {busy ? SIGNING_IN : (children ?? 'Sign in')}
    </button>
  )
}
