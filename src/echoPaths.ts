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
