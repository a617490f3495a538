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

/** The name shown for the signed-in user is capped at this many characters. */
export const DISPLAY_TEXT_LIMIT = 1000

// Control characters, and the bidirectional overrides that can make a name read as something else.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * Text from a profile made safe to show as plain text: no control or direction-override
 * characters, white space collapsed, at most 1,000 characters (never splitting a character).
 * Markup stays literal text: React renders it inert.
 */
export function toDisplayText(value: string, limit = DISPLAY_TEXT_LIMIT): string {
  const cleaned = value.replace(UNSAFE_CHARACTERS, ' ').replace(/\s+/g, ' ').trim()
  const characters = Array.from(cleaned)
  return characters.length > limit ? characters.slice(0, limit).join('') : cleaned
}

/** The name shown for a signed-in user: the name, else the email, as safe display text. */
export const displayNameOf = (user: EchoUser): string => toDisplayText(user.name ?? user.email ?? '')
