/**
 * The token echo-rtk's development moments send in place of an access token or a refresh token
 * (`echoDevMoments.expireAccessToken`, `endSessionAtNextRefresh`): no Echo ever issues it, so Echo
 * (the real one, the local one, and echo-rtk/testing's) refuses it, as it refuses an expired token or
 * a revoked refresh token.
 */
export const REFUSED_BY_ECHO = 'echo-rtk-devtools-moment'
