/**
 * The claims of the JWT `token`, read without verifying it: Echo verifies it. `null` when the token
 * is no JWT or its payload is not a JSON object.
 */
export function jwtClaims(token: string): Record<string, unknown> | null {
  const [, payload, signature] = token.split('.')
  if (payload === undefined || signature === undefined) return null
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
    const claims: unknown = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')))
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

/**
 * When the JWT `token` expires (its `exp`, epoch milliseconds), read without verifying it: Echo
 * verifies it. `null` when the token is no JWT or its `exp` is not a number.
 */
export function jwtExpiresAtMs(token: string): number | null {
  const exp = jwtClaims(token)?.exp
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null
}
