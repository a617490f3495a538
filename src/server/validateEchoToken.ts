import { EchoError } from '../errors'
import type { FetchFunction } from '../api/tokenProvider'
import { ECHO_PATHS } from '../echoPaths'
import type { TokenVerdict } from './tokenVerdicts'

/** Echo's route that says whose an access token is. */
export const VALIDATE_PATH = ECHO_PATHS.validateToken

/**
 * Asks Echo whose `token` is: `200 { valid: true, userId, appId, scope }`, or a refusal (`400`,
 * `401 { valid: false, error }`). Rejects with an `EchoError` when Echo cannot be asked (offline,
 * a 5xx, an answer that is not Echo's): that is no verdict, and never a pass.
 */
export async function validateEchoToken(fetch: FetchFunction, apiUrl: string, token: string): Promise<TokenVerdict> {
  const unreachable = (
    cause: unknown,
    code: 'NETWORK_ERROR' | `HTTP_${number}` = 'NETWORK_ERROR',
    statusCode?: number,
  ) =>
    new EchoError({
      code,
      reason: 'echo-unreachable',
      statusCode,
      endpoint: VALIDATE_PATH,
      cause,
      message: "Echo could not be reached to check the user's token; try again",
    })
  let response: Response
  try {
    response = await fetch(`${apiUrl}${VALIDATE_PATH}`, {
      method: 'POST',
      headers: { 'X-Echo-Token': token, Accept: 'application/json' },
    })
  } catch (error) {
    throw unreachable(error)
  }
  const answer = (await response.json().catch(() => null)) as Partial<{
    valid: unknown
    userId: unknown
    appId: unknown
    scope: unknown
    error: unknown
  }> | null
  if (response.status === 400 || response.status === 401) {
    return {
      valid: false,
      error: typeof answer?.error === 'string' ? answer.error : `Echo answered ${response.status}`,
    }
  }
  const { valid, userId, appId, scope, error } = answer ?? {}
  if (response.ok && valid === false)
    return { valid: false, error: typeof error === 'string' ? error : 'Invalid token' }
  if (!response.ok || valid !== true || typeof userId !== 'string' || typeof appId !== 'string') {
    throw unreachable(null, `HTTP_${response.status}`, response.status)
  }
  return { valid: true, userId, appId, scope: typeof scope === 'string' ? scope : '' }
}
