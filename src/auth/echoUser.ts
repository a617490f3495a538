import type { EchoUser } from '../api/userInfo'

export { toEchoUser } from '../api/userInfo'
export type { EchoUser, UserInfoClaims } from '../api/userInfo'

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
