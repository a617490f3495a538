/**
 * The signed-in user, from Echo's userinfo (SPEC §3).
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

/** The claims of Echo's `/api/oauth/userinfo` that echo-rtk reads (DESIGN §8). */
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
