import type { EchoEnvironment } from './environment'
import { isOwnSignInState, isPopupSignInState } from './storedUser'

// What the address bar holds when the page loads: a sign-in coming back from Echo. It is taken out of
// the address bar once, so no later mount (React StrictMode) acts on it again.

/** The query parameters an authorization server adds to the redirect URI (RFC 6749 §4.1.2, RFC 9207). */
const CALLBACK_PARAMS = ['code', 'state', 'session_state', 'iss', 'error', 'error_description', 'error_uri']

/** What the address bar says about a sign-in coming back. */
export type SignInCallback =
  { kind: 'code'; state: string } | { kind: 'error'; state: string; error: string; description: string | null }

/** The sign-in answer in `href`, if there is one: a `code` with its `state`, or an `error`. */
export function readSignInCallback(href: string): SignInCallback | null {
  const params = new URL(href).searchParams
  const state = params.get('state')
  if (state === null) return null
  const error = params.get('error')
  if (error !== null) return { kind: 'error', state, error, description: params.get('error_description') }
  return params.has('code') ? { kind: 'code', state } : null
}

/** `href` without the sign-in parameters; every other query parameter and the hash stay as they were. */
export function withoutSignInParams(href: string): string {
  const url = new URL(href)
  for (const name of CALLBACK_PARAMS) url.searchParams.delete(name)
  return url.href
}

/** A sign-in coming back that this app started: where it came back, and whether in a popup window. */
export type TakenSignInCallback = SignInCallback & { href: string; popup: boolean }

/**
 * A sign-in coming back in the address bar, if this app started it (its `state` is one this app
 * stored when it left for Echo), taken out of the address bar first, so that no later mount (React
 * StrictMode) or second store sees the code again and exchanges it twice; with the address it came
 * back at, for the exchange, and whether it was started in a popup (this page is that popup). `null`
 * when the page is no sign-in coming back: its parameters, if any, are then the app's own and stay.
 */
export function takeSignInCallback(
  env: Pick<EchoEnvironment, 'location' | 'history' | 'storage'>,
  appId: string,
): TakenSignInCallback | null {
  const href = env.location.href
  const callback = readSignInCallback(href)
  if (callback === null || !isOwnSignInState(env.storage, callback.state, appId)) return null
  env.history.replaceState(env.history.state, '', withoutSignInParams(href))
  return { ...callback, href, popup: isPopupSignInState(env.storage, callback.state) }
}
