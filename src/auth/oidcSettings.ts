import { WebStorageStateStore, type OidcClientSettings } from 'oidc-client-ts'

import type { ResolvedEchoConfig } from '../config'
import { ECHO_PATHS } from '../echoPaths'

/**
 * The `OidcClient` settings of DESIGN §4. Echo publishes no discovery document, so the metadata
 * is spelled out. There is no `UserManager`: the session keeps the user (in oidc-client-ts's own
 * format and key), runs its own renew timer through the refresh coordinator (automatic silent
 * renew, one per token, never around the single refresh) and sends no id token when renewing
 * (Echo issues none).
 */
export function oidcSettings(config: ResolvedEchoConfig, storage: Storage): OidcClientSettings {
  const { apiUrl, appId, redirectUri, scope } = config
  return {
    authority: apiUrl,
    client_id: appId,
    redirect_uri: redirectUri,
    post_logout_redirect_uri: redirectUri,
    response_type: 'code',
    scope,
    loadUserInfo: false,
    stateStore: new WebStorageStateStore({ store: storage }),
    metadata: {
      issuer: apiUrl,
      authorization_endpoint: `${apiUrl}${ECHO_PATHS.authorize}`,
      token_endpoint: `${apiUrl}${ECHO_PATHS.token}`,
      userinfo_endpoint: `${apiUrl}${ECHO_PATHS.userinfo}`,
      jwks_uri: `${apiUrl}${ECHO_PATHS.jwks}`,
      end_session_endpoint: `${apiUrl}${ECHO_PATHS.logout}`,
    },
  }
}
