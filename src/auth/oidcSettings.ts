import { WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts'

import type { ResolvedEchoConfig } from '../config'

/** SPEC §9. */
const SILENT_RENEW_TIMEOUT_SECONDS = 10

/**
 * The `UserManager` settings of DESIGN §4. Echo publishes no discovery document, so the metadata
 * is spelled out; oidc-client-ts's own renew timer is off because it would refresh around the
 * coordinator (and loops on 15 s tokens): the session runs its own timer through it instead.
 */
export function oidcSettings(config: ResolvedEchoConfig, storage: Storage): UserManagerSettings {
  const { apiUrl, appId, redirectUri, scope } = config
  return {
    authority: apiUrl,
    client_id: appId,
    redirect_uri: redirectUri,
    silent_redirect_uri: redirectUri,
    post_logout_redirect_uri: redirectUri,
    response_type: 'code',
    scope,
    silentRequestTimeoutInSeconds: SILENT_RENEW_TIMEOUT_SECONDS,
    automaticSilentRenew: false,
    includeIdTokenInSilentRenew: false,
    loadUserInfo: false,
    monitorSession: false,
    userStore: new WebStorageStateStore({ store: storage }),
    stateStore: new WebStorageStateStore({ store: storage }),
    metadata: {
      issuer: apiUrl,
      authorization_endpoint: `${apiUrl}/api/oauth/authorize`,
      token_endpoint: `${apiUrl}/api/oauth/token`,
      userinfo_endpoint: `${apiUrl}/api/oauth/userinfo`,
      jwks_uri: `${apiUrl}/.well-known/jwks.json`,
      end_session_endpoint: `${apiUrl}/api/oauth/logout`,
    },
  }
}

/** Where oidc-client-ts keeps the user for this app (its `WebStorageStateStore` prefix is `oidc.`). */
export function storedUserKey(config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>): string {
  return `oidc.user:${config.apiUrl}:${config.appId}`
}
