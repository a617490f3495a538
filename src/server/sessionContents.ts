import type { EchoUser } from '../api/userInfo'

/**
 * A signed-in user as the app's server holds them, sealed in their session cookie: the tokens and
 * the profile. The whole session: nothing of it is kept anywhere else.
 */
export interface HeldSession {
  accessToken: string
  /** `null` when Echo gave none: the session ends when the access token does. */
  refreshToken: string | null
  /** When the access token expires, epoch ms. */
  expiresAt: number
  /** When the refresh token stops working, epoch ms; `null` when Echo did not say. */
  refreshExpiresAt: number | null
  scope: string
  user: EchoUser
  /** When Echo last issued these tokens (the sign-in or the last refresh), epoch ms. */
  checkedAt: number
}
