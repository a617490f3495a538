import type { FetchFunction } from '../api/tokenProvider'
import { ECHO_PATHS } from '../echoPaths'
import { EchoError } from '../errors'
import type { UserInfoClaims } from './echoUser'

const USERINFO_PATH = ECHO_PATHS.userinfo

/**
 * The signed-in user's profile. Echo issues no id_token, so oidc-client-ts loads none: the session
 * reads userinfo itself. Echo's userinfo has no `picture`; the user's image is in `/api/v1/user`
 * (`image`), asked for at the same time and taken when userinfo has none (a failure there leaves
 * the picture out, nothing more).
 */
export async function fetchUserInfo(fetch: FetchFunction, apiUrl: string, accessToken: string): Promise<UserInfoClaims> {
  const headers = { Authorization: `Bearer ${accessToken}` }
  const account = fetchAccountImage(fetch, apiUrl, headers)
  const response = await fetch(`${apiUrl}${USERINFO_PATH}`, { headers })
  if (!response.ok) throw await EchoError.fromResponse(response, { endpoint: USERINFO_PATH, action: 'loading the user profile' })
  const claims = (await response.json().catch(() => null)) as Partial<UserInfoClaims> | null
  if (typeof claims?.sub !== 'string' || claims.sub === '') {
    throw new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-answer', message: 'The userinfo answer has no subject', endpoint: USERINFO_PATH, action: 'loading the user profile' })
  }
  if (typeof claims.picture === 'string' && claims.picture !== '') return claims as UserInfoClaims
  const image = await account
  return (image === null ? claims : { ...claims, picture: image }) as UserInfoClaims
}

/** The image of the user's Echo account (`image`, else `picture`), or `null` when there is none or it cannot be read. */
async function fetchAccountImage(fetch: FetchFunction, apiUrl: string, headers: Record<string, string>): Promise<string | null> {
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
