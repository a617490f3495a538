// Echo's own Next.js SDK keeps a signed-in user in five cookies of its own, each HttpOnly and named
// after the app: the access token, the refresh token, its expiry (epoch seconds), the user's info
// as JSON ({ id, email, name }, from Echo's token answer) and a sign-in's PKCE verifier. A user it
// signed in is taken over once (docs/migrating-from-echo-react-sdk.md, "From Echo's Next.js SDK").
import { DEFAULT_SCOPE } from '../config'
import type { HeldSession } from './sessionContents'
import { jwtClaims } from './jwtClaims'

/** The names of Echo's Next.js SDK's cookies for `appId`. */
export function echoSdkCookieNames(appId: string) {
  return {
    access: `echo_access_token_${appId}`,
    refresh: `echo_refresh_token_${appId}`,
    refreshExpires: `echo_refresh_token_expires_${appId}`,
    user: `echo_user_info_${appId}`,
    codeVerifier: `echo_code_verifier_${appId}`,
  } as const
}

/**
 * The session Echo's Next.js SDK left in `cookies` for `appId`, or `null` when it left none that
 * can go on (no refresh token, or no readable user). Its access token may have expired or be gone
 * (its cookie lives as long as the token): then the first call renews it.
 */
export function sessionFromEchoSdkCookies(
  cookies: Map<string, string>,
  appId: string,
  now: number,
): HeldSession | null {
  const names = echoSdkCookieNames(appId)
  const refreshToken = cookies.get(names.refresh)
  const user = userOf(cookies.get(names.user))
  if (refreshToken === undefined || refreshToken === '' || user === null) return null
  const accessToken = cookies.get(names.access) ?? ''
  const claims = jwtClaims(accessToken)
  const expiresAt = typeof claims?.exp === 'number' ? claims.exp * 1000 : 0
  const refreshExpires = Number(cookies.get(names.refreshExpires))
  return {
    accessToken,
    refreshToken,
    expiresAt,
    refreshExpiresAt: Number.isFinite(refreshExpires) && refreshExpires > 0 ? refreshExpires * 1000 : null,
    scope: typeof claims?.scope === 'string' ? claims.scope : DEFAULT_SCOPE,
    user,
    checkedAt: Math.min(now, typeof claims?.iat === 'number' ? claims.iat * 1000 : now),
  }
}

function userOf(json: string | undefined): HeldSession['user'] | null {
  if (json === undefined) return null
  try {
    const info = JSON.parse(json) as { id?: unknown; email?: unknown; name?: unknown }
    if (typeof info.id !== 'string' || info.id === '') return null
    const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)
    return { id: info.id, email: textOf(info.email), name: textOf(info.name), picture: null }
  } catch {
    return null
  }
}
