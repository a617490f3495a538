/**
 * The error oidc-client-ts threw, without what it carries beyond name and message: its
 * `ErrorResponse` keeps the request `form`, with the refresh token or the code verifier in it, and
 * that must never reach a log, a devtools panel or an error's `cause`.
 */
export function tokenFreeError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(typeof error === 'string' ? error : 'Unknown error')
  const safe = new Error(error.message)
  safe.name = error.name
  return safe
}
