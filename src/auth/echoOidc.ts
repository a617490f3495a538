import { OidcClient, User, type RefreshState } from 'oidc-client-ts'

import type { ResolvedEchoConfig } from '../config'
import { oidcSettings, SILENT_RENEW_TIMEOUT_SECONDS } from './oidcSettings'
import { storedUserKey } from './storedUserKey'
import { removeSignInStates } from './storedUser'
import { tokenFreeError } from './tokenFreeError'

/**
 * The three OAuth steps of a session, over oidc-client-ts's `OidcClient`: the authorize URL of a
 * sign-in (PKCE; its state kept in storage), the code exchange, and the refresh-token grant. What
 * oidc-client-ts throws leaves here without the request form it carries (tokens, the verifier).
 */
export class EchoOidc {
  readonly #client: OidcClient
  readonly #config: ResolvedEchoConfig
  readonly #storage: Storage

  constructor(config: ResolvedEchoConfig, storage: Storage) {
    this.#client = new OidcClient(oidcSettings(config, storage))
    this.#config = config
    this.#storage = storage
  }

  /** The authorize URL of a new sign-in. */
  async signInUrl(): Promise<string> {
    return (await this.#client.createSigninRequest({ request_type: 'si:r' }).catch(rethrowTokenFree)).url
  }

  /** Exchanges the code of the sign-in coming back at `href` (once: its state is removed) for tokens; the profile is not read here. */
  async exchangeCode(href: string): Promise<User> {
    return new User(await this.#client.processSigninResponse(href).catch(rethrowTokenFree))
  }

  /** New tokens for `user`'s refresh token (rotated by Echo); the profile and, if Echo sends none, the refresh token carry over. */
  async refresh(user: User & { refresh_token: string }): Promise<User> {
    const state = { refresh_token: user.refresh_token, session_state: user.session_state, scope: user.scope, profile: user.profile, data: user.state } as RefreshState
    const renewed = new User(await this.#client.useRefreshToken({ state, timeoutInSeconds: SILENT_RENEW_TIMEOUT_SECONDS }).catch(rethrowTokenFree))
    renewed.refresh_token ??= user.refresh_token
    return renewed
  }

  /**
   * Removes what this app keeps in storage: the user, the sign-in states it left (each with its
   * PKCE verifier: a session that ended has no sign-in of its own worth keeping), and any app's
   * states older than oidc-client-ts's limit (15 minutes).
   */
  async forgetStored(): Promise<void> {
    this.#storage.removeItem(storedUserKey(this.#config))
    removeSignInStates(this.#storage, this.#config.appId)
    await this.#client.clearStaleState()
  }
}

function rethrowTokenFree(error: unknown): never {
  throw tokenFreeError(error)
}
