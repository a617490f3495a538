import paths from './echoPaths.json'

/**
 * Echo's paths under `apiUrl`, in one table: OAuth, the `/api/v1`
 * API and token validation. The client, the OIDC settings, the server entry, `echo-rtk/testing`
 * and the dev server all read this one table; it is JSON so that the dev server, plain Node, can
 * import it too. An app is `${apps}/${id}`. The router's paths are the router's own
 * (`api/router/`).
 * @internal
 */
export const ECHO_PATHS: Readonly<typeof paths> = paths

/**
 * The token echo-rtk's development moments send in place of an access token or a refresh token
 * (`echoDevMoments.expireAccessToken`, `endSessionAtNextRefresh`): no Echo ever issues it, so Echo
 * (the real one, the local one, and echo-rtk/testing's) refuses it, as it refuses an expired token or
 * a revoked refresh token.
 */
export const REFUSED_BY_ECHO = 'echo-rtk-devtools-moment'
