/** The query parameters an authorization server adds to the redirect URI (RFC 6749 §4.1.2, RFC 9207). */
const CALLBACK_PARAMS = ['code', 'state', 'session_state', 'iss', 'error', 'error_description', 'error_uri']

/** What the address bar says about a sign-in coming back. */
export type SignInCallback = { kind: 'code'; state: string } | { kind: 'error'; state: string; error: string; description: string | null }

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
