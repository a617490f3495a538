import { ECHO_PATHS } from '../echoPaths'
import { EchoError } from '../errors'
import type { FetchFunction } from './tokenProvider'

/**
 * The signed-in user, from Echo's userinfo.
 *
 * @example
 * const label = user.name ?? user.email
 */
export interface EchoUser {
  /** The subject: the user's id in Echo. */
  id: string
  email: string | null
  /** The name, or the preferred username when there is no name. */
  name: string | null
  picture: string | null
}

/** The claims of Echo's `/api/oauth/userinfo` that echo-rtk reads. */
export interface UserInfoClaims {
  sub: string
  email?: string | null
  name?: string | null
  preferred_username?: string | null
  picture?: string | null
  [claim: string]: unknown
}

/** The `EchoUser` of a userinfo answer; the name falls back to `preferred_username`. */
export function toEchoUser(claims: UserInfoClaims): EchoUser {
  return {
    id: claims.sub,
    email: text(claims.email),
    name: text(claims.name) ?? text(claims.preferred_username),
    picture: text(claims.picture),
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/**
 * The signed-in user's profile from userinfo. Echo's userinfo has no `picture`; the user's image is
 * in `/api/v1/user` (`image`), asked for at the same time and taken when userinfo has none (a
 * failure there leaves the picture out, nothing more).
 */
export async function fetchUserInfo(
  fetch: FetchFunction,
  apiUrl: string,
  accessToken: string,
): Promise<UserInfoClaims> {
  const path = ECHO_PATHS.userinfo
  const headers = { Authorization: `Bearer ${accessToken}` }
  const account = fetchAccountImage(fetch, apiUrl, headers)
  const response = await fetch(`${apiUrl}${path}`, { headers })
  if (!response.ok) throw await EchoError.fromResponse(response, { endpoint: path, action: 'loading the user profile' })
  const claims = (await response.json().catch(() => null)) as Partial<UserInfoClaims> | null
  if (typeof claims?.sub !== 'string' || claims.sub === '') {
    throw new EchoError({
      code: 'UNKNOWN_ERROR',
      reason: 'bad-answer',
      message: 'The userinfo answer has no subject',
      endpoint: path,
      action: 'loading the user profile',
    })
  }
  if (typeof claims.picture === 'string' && claims.picture !== '') return claims as UserInfoClaims
  const image = await account
  return (image === null ? claims : { ...claims, picture: image }) as UserInfoClaims
}

/** The image of the user's Echo account (`image`, else `picture`), or `null` when there is none or it is unreadable. */
async function fetchAccountImage(
  fetch: FetchFunction,
  apiUrl: string,
  headers: Record<string, string>,
): Promise<string | null> {
  try {
    const response = await fetch(`${apiUrl}${ECHO_PATHS.user}`, { headers })
    if (!response.ok) return null
    const { image, picture } = ((await response.json()) ?? {}) as { image?: unknown; picture?: unknown }
    const found = [image, picture].find((value) => typeof value === 'string' && /^https?:\/\//.test(value))
    return typeof found === 'string' ? found : null
  } catch {
    return null
  }
}
