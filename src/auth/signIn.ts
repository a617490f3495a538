// The code a sign-in needs, and only a sign-in: oidc-client-ts's OidcClient (PKCE, the authorize
// request, the code exchange) and the profile read after it. EchoSession loads this file when a
// sign-in starts or the address bar holds one coming back, so a returning, signed-in user's page
// never downloads it (bundlers make it a chunk of its own).
import { OidcClient, WebStorageStateStore, type OidcClientSettings } from 'oidc-client-ts'

import { fetchUserInfo } from '../api/userInfo'
import type { ResolvedEchoConfig } from '../config'
import { ECHO_PATHS } from '../echoPaths'
import { EchoError } from '../errors'
import type { EchoEnvironment } from './environment'
import type { SignInReturnTo } from './signInOptions'
import { POPUP_REQUEST_TYPE, storedUserKey, storeUser, withRefreshLife, type StoredUser } from './storedUser'

/**
 * The `OidcClient` settings. Echo publishes no discovery document, so the metadata is spelled out.
 * There is no `UserManager`: the session keeps the user (in oidc-client-ts's own format and key),
 * runs its own renew timer through the refresh coordinator and sends no id token when renewing
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

/**
 * The authorize URL of a new sign-in (authorization code + PKCE, its state and verifier kept in
 * `storage`), and its state: marked as a popup's when `popup`, carrying `returnTo` when given.
 */
export async function signInUrl(
  config: ResolvedEchoConfig,
  storage: Storage,
  { popup = false, returnTo }: { popup?: boolean; returnTo?: SignInReturnTo | undefined } = {},
): Promise<{ url: string; state: string }> {
  const request = await new OidcClient(oidcSettings(config, storage))
    .createSigninRequest({
      request_type: popup ? POPUP_REQUEST_TYPE : 'si:r',
      ...(returnTo === undefined ? {} : { state: { returnTo } }),
    })
    .catch(rethrowTokenFree)
  return { url: request.url, state: request.state.id }
}

/** A sign-in completed: the user stored, and what the app asked to have back after it. */
export interface CompletedSignIn {
  user: StoredUser
  returnTo: SignInReturnTo | undefined
}

/**
 * Completes the sign-in coming back at `href`: exchanges its code once (its state is removed), reads
 * the profile from userinfo (Echo issues no id token), and stores the user, only then: a stored
 * user without a profile would be no one to restore.
 */
export async function completeSignIn(
  env: EchoEnvironment,
  config: ResolvedEchoConfig,
  href: string,
): Promise<CompletedSignIn> {
  try {
    const answer = await new OidcClient(oidcSettings(config, env.storage))
      .processSigninResponse(href)
      .catch(rethrowTokenFree)
    const tokens: StoredUser = {
      session_state: answer.session_state,
      access_token: answer.access_token,
      ...(answer.refresh_token === undefined ? {} : { refresh_token: answer.refresh_token }),
      token_type: answer.token_type,
      scope: answer.scope,
      profile: { sub: '' },
      ...(answer.expires_at === undefined ? {} : { expires_at: answer.expires_at }),
    }
    const withLife = withRefreshLife(
      tokens,
      (answer as { refresh_token_expires_in?: unknown }).refresh_token_expires_in,
      env.now(),
    )
    const user = {
      ...withLife,
      profile: { ...withLife.profile, ...(await fetchUserInfo(env.fetch, config.apiUrl, answer.access_token)) },
    }
    storeUser(env.storage, storedUserKey(config), user)
    return { user, returnTo: (answer.userState as { returnTo?: SignInReturnTo } | undefined)?.returnTo }
  } catch (error) {
    throw EchoError.from(tokenFreeError(error), 'completing sign-in')
  }
}

/**
 * The error oidc-client-ts threw, without what it carries beyond name and message: its
 * `ErrorResponse` keeps the request `form`, with the refresh token or the code verifier in it, and
 * that must never reach a log, a devtools panel or an error's `cause`.
 */
export function tokenFreeError(error: unknown): Error {
  // echo-rtk's own errors carry no request: they pass with their code and their ` while ` suffix.
  if (error instanceof EchoError) return error
  if (!(error instanceof Error)) return new Error(typeof error === 'string' ? error : 'Unknown error')
  const safe = new Error(error.message)
  safe.name = error.name
  return safe
}

function rethrowTokenFree(error: unknown): never {
  throw tokenFreeError(error)
}
