import { useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react'

import { useEchoSelector } from '../api/echoReduxContext'
import { toDisplayText } from '../auth/displayText'
import type { EchoUser } from '../auth/echoUser'
import { EchoError } from '../errors'
import { selectAuthStatus, selectEchoUser } from '../store/selectors'
import { signIn } from '../store/thunks'
import { sessionOfStore, useEchoContext } from './EchoContext'
import { Logo } from './Logo'

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
 * The sign-in button: `Sign in`; `Signing in...` and disabled while loading; once signed in,
 * `Signed in as` and the user's name (or email).
 *
 * @example
 * <EchoSignIn onSuccess={(user) => console.log('Welcome', user.name)} />
 */
export function EchoSignIn({ onSuccess, onError, className, children, navigate }: EchoSignInProps): ReactElement {
  const { store } = useEchoContext()
  const status = useEchoSelector(selectAuthStatus)
  const user = useEchoSelector(selectEchoUser)
  const [starting, setStarting] = useState(false)
  const callbacks = useRef({ onSuccess, onError })
  const reported = useRef(false)

  useEffect(() => {
    callbacks.current = { onSuccess, onError }
  })

  useEffect(() => {
    const session = sessionOfStore(store)
    if (!session.hadSignInCallback) return
    void session.signInCallback.then(() => {
      if (reported.current) return
      reported.current = true
      const { auth } = store.getState().echo
      if (auth.status === 'authenticated' && auth.user !== null) callbacks.current.onSuccess?.(auth.user)
      else if (auth.error !== null) callbacks.current.onError?.(EchoError.fromJSON(auth.error))
    })
  }, [store])

  if (status === 'authenticated' && user !== null) {
    return (
      <span className={className} data-echo-sign-in="signed-in">
        <Logo /> Signed in as {toDisplayText(user.name ?? user.email ?? '')}
      </span>
    )
  }

  const busy = starting || status === 'loading'
  const start = async () => {
    setStarting(true)
    try {
      await store.dispatch(signIn({ navigate }))
    } catch (error) {
      setStarting(false)
      callbacks.current.onError?.(error instanceof Error ? error : new Error('Sign in failed'))
    }
  }
  return (
    <button type="button" className={className} disabled={busy} aria-busy={busy} onClick={() => void start()} data-echo-sign-in={busy ? 'loading' : 'signed-out'}>
      <Logo /> {busy ? 'Signing in...' : (children ?? 'Sign in')}
    </button>
  )
}
