import { CREDIT_BEFORE, TOP_UP_RETURN } from '../api/paymentLinks'
import type { EchoEnvironment } from './environment'
import { isOwnSignInState, isPopupSignInState } from './storedUser'

// What the address bar holds when the page loads: a sign-in coming back from Echo, or a return from
// checkout. Each is taken out of the address bar once, so no later mount (React StrictMode) acts on it again.

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

/**
 * The checkout return `href` is marked as, if any: `tab` for a checkout tab the app opened,
 * `page` for one in the app's own tab; with `href` cleaned of the mark.
 */
function readTopUpReturn(
  href: string,
): { openedIn: 'tab' | 'page'; cleaned: string; creditBefore: number | null } | null {
  const url = new URL(href)
  const mark = url.searchParams.get(TOP_UP_RETURN)
  if (mark !== 'tab' && mark !== 'page') return null
  const before = Number(url.searchParams.get(CREDIT_BEFORE) ?? Number.NaN)
  url.searchParams.delete(TOP_UP_RETURN)
  url.searchParams.delete(CREDIT_BEFORE)
  return { openedIn: mark, cleaned: url.href, creditBefore: Number.isFinite(before) ? before : null }
}

/**
 * When this page is checkout's return (the mark echo-rtk put on `successUrl`): takes the mark out
 * of the address bar, calls `paid` (the balance is stale here and in the other tabs) with the credit
 * before a checkout in this tab, and closes a checkout tab the app opened, so the user goes on in
 * the tab they bought from.
 */
export function takeCheckoutReturn(env: EchoEnvironment, paid: (creditBefore: number | null) => void): void {
  const topUp = readTopUpReturn(env.location.href)
  if (topUp === null) return
  env.history.replaceState(env.history.state, '', topUp.cleaned)
  paid(topUp.creditBefore)
  if (topUp.openedIn === 'tab') env.closeWindow()
}
