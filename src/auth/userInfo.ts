import type { FetchFunction } from '../api/tokenProvider'
import { ECHO_PATHS } from '../echoPaths'
import { EchoError } from '../errors'
import type { UserInfoClaims } from './echoUser'

const USERINFO_PATH = ECHO_PATHS.userinfo

/** Echo issues no id_token, so oidc-client-ts loads no profile: the session reads it from userinfo. */
export async function fetchUserInfo(fetch: FetchFunction, apiUrl: string, accessToken: string): Promise<UserInfoClaims> {
  const response = await fetch(`${apiUrl}${USERINFO_PATH}`, { headers: { Authorization: `Bearer ${accessToken}` } })
  if (!response.ok) throw await EchoError.fromResponse(response, { endpoint: USERINFO_PATH, action: 'loading the user profile' })
  const claims = (await response.json().catch(() => null)) as Partial<UserInfoClaims> | null
  if (typeof claims?.sub !== 'string' || claims.sub === '') {
    throw new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-answer', message: 'The userinfo answer has no subject', endpoint: USERINFO_PATH, action: 'loading the user profile' })
  }
  return claims as UserInfoClaims
}
