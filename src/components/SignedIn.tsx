import type { ReactNode } from 'react'

import { useEchoSelector } from '../api/query/echoReduxContext'
import { selectAuthStatus } from '../store/selectors'

/** Props of {@link SignedIn} and {@link SignedOut}. */
export interface AuthGateProps {
  children?: ReactNode
}

/**
 * Renders its children only while someone is signed in.
 *
 * @example
 * <SignedIn><EchoBalance /></SignedIn>
 */
export function SignedIn({ children }: AuthGateProps): ReactNode {
  return useEchoSelector(selectAuthStatus) === 'authenticated' ? children : null
}

/**
 * Renders its children only while nobody is signed in (not while the session is still loading).
 *
 * @example
 * <SignedOut><EchoSignIn /></SignedOut>
 */
export function SignedOut({ children }: AuthGateProps): ReactNode {
  return useEchoSelector(selectAuthStatus) === 'unauthenticated' ? children : null
}
