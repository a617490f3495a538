import type { ResolvedEchoConfig } from '../config'

/**
 * Where the user is kept for this app: oidc-client-ts's own key (`oidc.user:<authority>:<client_id>`),
 * so sessions stored by its `UserManager` (and by earlier echo-rtk) restore.
 */
export function storedUserKey(config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>): string {
  return `oidc.user:${config.apiUrl}:${config.appId}`
}
