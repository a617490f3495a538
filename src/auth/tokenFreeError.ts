import { EchoError } from '../errors'

/**
 * The error oidc-client-ts threw, without what it carries beyond name and message: its
 * `ErrorResponse` keeps the request `form`, with the refresh token or the code verifier in it, and
 * that must never reach a log, a devtools panel or an error's `cause`.
 */
export function tokenFreeError(error: unknown): Error {
  // echo-rtk's own errors carry no request: they pass with their code and their ` while ` suffix.
  if (error instanceof EchoError) return error
  if (!(error instanceof Error)) return new Error(typeof error === 'string' ? error : 'Unknown error')
  const safe = new Error(error.message)
  safe.name = error.name
  return safe
}
