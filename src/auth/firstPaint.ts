import { SERVER_ROUTES, SIGN_IN_ERROR_PARAMS, type ServerSessionAnswer } from '../api/serverRoutes'
import type { ResolvedEchoConfig } from '../config'
import { toEchoUser } from './echoUser'
import type { EchoEnvironment } from './environment'
import { readSignInCallback } from './pageReturn'
import type { SessionReporter, SessionSnapshot } from './sessionState'
import {
  expiresAtMs,
  isOwnSignInState,
  isPopupSignInState,
  readStoredUser,
  storedUserKey,
  type StoredUser,
} from './storedUser'

// What the store is told before the session's own code has loaded (it comes from a chunk of its mode,
// after the first paint): who is signed in, read with as little code as it takes, so that a returning
// user's first paint already shows them. The session, once loaded, starts from what was told, and tells
// the store only what changed: each action reaches the store once, as it would from the session.

/** What was told before the session loaded: someone signed in, nobody, or nothing yet (the session decides). */
export type FirstPaint =
  | { readonly told: 'signedIn'; readonly snapshot: SessionSnapshot }
  | { readonly told: 'signedOut' }
  | { readonly told: 'nothing'; readonly handsOver: boolean }

/** What the store is told of a stored user: who they are, their token, how they arrived. */
export function snapshotOf(user: StoredUser, arrivedBy: SessionSnapshot['arrivedBy']): SessionSnapshot {
  return { user: toEchoUser(user.profile), accessToken: user.access_token, expiresAt: expiresAtMs(user), arrivedBy }
}

/**
 * The browser session's first paint, read from the page: a sign-in coming back in the address bar is
 * the session's to complete (and a popup's page hands it over, showing nothing); else the stored user,
 * if their token is still good (an expired one waits for the session's renewal); else nobody.
 */
export function browserFirstPaint(
  env: Pick<EchoEnvironment, 'location' | 'storage' | 'now'>,
  config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>,
): FirstPaint {
  const callback = readSignInCallback(env.location.href)
  if (callback !== null && isOwnSignInState(env.storage, callback.state, config.appId))
    return { told: 'nothing', handsOver: isPopupSignInState(env.storage, callback.state) }
  const stored = readStoredUser(env.storage, storedUserKey(config))
  if (stored === null) return { told: 'signedOut' }
  if (expiresAtMs(stored) <= env.now()) return { told: 'nothing', handsOver: false }
  return { told: 'signedIn', snapshot: snapshotOf(stored, 'storage') }
}

/**
 * The server-held session's first paint: the app's server's answer to who is signed in. Only a plain
 * answer is told (someone, or nobody); anything else (the session ended on this answer, Echo out of
 * reach, no answer) is the session's to tell, and it asks again.
 */
export async function serverFirstPaint(
  env: Pick<EchoEnvironment, 'fetch' | 'location' | 'storage' | 'tabStorage'>,
  config: Pick<ResolvedEchoConfig, 'serverUrl' | 'appId'>,
): Promise<FirstPaint> {
  const nothing: FirstPaint = { told: 'nothing', handsOver: false }
  // A sign-in coming back, done or refused, is the session's to tell (with what the app handed to it).
  const comingBack =
    (env.tabStorage ?? env.storage).getItem(pendingServerSignInKey(config.appId)) !== null ||
    new URL(env.location.href).searchParams.has(SIGN_IN_ERROR_PARAMS.error)
  if (comingBack) return nothing
  try {
    const response = await env.fetch(`${config.serverUrl}/${SERVER_ROUTES.session}`, {
      headers: { Accept: 'application/json' },
    })
    if (!response.ok || response.headers.has('x-echo-reason')) return nothing
    const { user } = (await response.json()) as ServerSessionAnswer
    if (user === null) return { told: 'signedOut' }
    return { told: 'signedIn', snapshot: { user, accessToken: null, expiresAt: null, arrivedBy: 'storage' } }
  } catch {
    return nothing
  }
}

/** Where the page keeps a server-mode sign-in it left for (what the app handed to it), until it comes back. */
export function pendingServerSignInKey(appId: string): string {
  return `echo-rtk:server-sign-in:${appId}`
}

/** Tells the store the first paint (what the session would have told it at its start). */
export function tellFirstPaint(paint: FirstPaint, report: SessionReporter): void {
  if (paint.told === 'signedIn') report.signedIn(paint.snapshot)
  else if (paint.told === 'signedOut') report.signedOut({ by: 'nothing-stored' })
}
