import { useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { displayNameOf } from '../auth/echoUser'
import type { SignInReturnTo } from '../auth/EchoSession'
import type { EchoUser } from '../auth/echoUser'
import { EchoError } from '../errors'
import type { EchoRootState } from '../store/echoReducer'
import { selectAuthStatus, selectEchoUser, selectIsSigningIn } from '../store/selectors'
import { signIn } from '../store/thunks'
import { useAnnounce } from './EchoAnnouncer'
import { useEchoContext } from './useEcho'
import { Logo } from './Logo'

const selectArrivedBy = (state: EchoRootState) => state.echo.auth.arrivedBy
const selectAuthError = (state: EchoRootState) => state.echo.auth.error
const SIGNING_IN = 'Signing in...'

/** Props of {@link EchoSignIn}. */
export interface EchoSignInProps {
  /** Called when a sign-in completes on this page (back from Echo, or in its window), with the user. */
  onSuccess?: (user: EchoUser) => void
  /**
   * Called when the sign-in cannot start, its window was closed or blocked, or the sign-in coming
   * back fails.
   */
  onError?: (error: Error) => void
  className?: string
  /** The button's label instead of `Sign in`. */
  children?: ReactNode
  /**
   * Leaves for Echo's sign-in page at `url` yourself (a router, or `echoSignIn().navigate` in a
   * test). Defaults to `window.location.assign`.
   */
  navigate?: (url: string) => void
  /**
   * Signs in in a window of its own and keeps the page (`true`: the redirect where the browser
   * blocks the window; `'only'`: no redirect). Defaults to `EchoConfig.signIn`.
   */
  popup?: boolean | 'only'
  /** What to have back after the sign-in, as `useEcho().returnTo` (`signIn({ returnTo })`). */
  returnTo?: SignInReturnTo
}

/**
 * The sign-in button: `Sign in`; `Signing in...` and disabled while loading (`aria-disabled`: it
 * keeps the focus, and a screen reader hears `Signing in...`); once signed in, `Signed in as` and
 * the user's name (or email).
 *
 * @example
 * <EchoSignIn onSuccess={(user) => console.log('Welcome', user.name)} />
 */
export function EchoSignIn({
  onSuccess,
  onError,
  className,
  children,
  navigate,
  popup,
  returnTo,
}: EchoSignInProps): ReactElement {
  const { store } = useEchoContext()
  const announce = useAnnounce()
  // One field each, so a token refresh (which changes only the token) renders nothing here.
  const status = useEchoSelector(selectAuthStatus)
  const user = useEchoSelector(selectEchoUser)
  const error = useEchoSelector(selectAuthError)
  const arrivedBy = useEchoSelector(selectArrivedBy)
  // A sign-in in its window, started here or elsewhere on the page (another button, a call that needed it).
  const isSigningIn = useEchoSelector(selectIsSigningIn)
  const [starting, setStarting] = useState(false)
  const callbacks = useRef({ onSuccess, onError })
  /** The sign-in last reported (its user or its error): each is reported once, however often this renders. */
  const reported = useRef<unknown>(null)

  useEffect(() => {
    callbacks.current = { onSuccess, onError }
  })

  // A sign-in that came back from Echo on this page (or to its window), once it has settled: success or failure.
  useEffect(() => {
    const settled = status === 'authenticated' ? user : error
    if (arrivedBy !== 'callback' || status === 'loading' || settled === null || reported.current === settled) return
    reported.current = settled
    if (status === 'authenticated' && user !== null) callbacks.current.onSuccess?.(user)
    else if (error !== null) callbacks.current.onError?.(EchoError.fromJSON(error))
  }, [arrivedBy, status, user, error])

  if (status === 'authenticated' && user !== null) {
    // Signed in (in its window, on this page): the next sign-out shows the button ready again.
    if (starting) setStarting(false)
    return (
      <span className={className} data-echo-sign-in="signed-in">
        <Logo /> Signed in as {displayNameOf(user)}
      </span>
    )
  }

  const busy = starting || isSigningIn || status === 'loading'
  const start = async () => {
    // Busy, the button stays focusable (so focus never falls to the page); a press brings an open
    // sign-in window to the front (the session's one sign-in answers it), else does nothing.
    if (busy) {
      if (isSigningIn && status !== 'loading') store.dispatch(signIn()).catch(() => undefined)
      return
    }
    setStarting(true)
    announce(SIGNING_IN)
    try {
      await store.dispatch(signIn({ navigate, popup, returnTo }))
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
