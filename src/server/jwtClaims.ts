/**
 * When the JWT `token` expires (its `exp`, epoch milliseconds), read without verifying it: Echo
 * verifies it. `null` when the token is no JWT or its `exp` is not a number.
 */
export function jwtExpiresAtMs(token: string): number | null {
  const [, payload, signature] = token.split('.')
  if (payload === undefined || signature === undefined) return null
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
    const claims: unknown = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')))
    const exp = typeof claims === 'object' && claims !== null ? (claims as { exp?: unknown }).exp : undefined
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null
  } catch {
    return null
  }
}
