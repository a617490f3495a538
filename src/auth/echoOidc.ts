import { OidcClient, User } from 'oidc-client-ts'

import type { ResolvedEchoConfig } from '../config'
import { oidcSettings } from './oidcSettings'
import { storedUserKey } from './storedUserKey'
import { removeSignInStates, withRefreshLife } from './storedUser'
import { tokenFreeError } from './tokenFreeError'

/**
 * The sign-in steps of a session, over oidc-client-ts's `OidcClient`: the authorize URL of a
 * sign-in (PKCE; its state kept in storage) and the code exchange. (The refresh-token grant is the
 * session's own, `refreshGrant.ts`: it must tell Echo's refusal from Echo out of reach.) What
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

  /**
   * Exchanges the code of the sign-in coming back at `href` (once: its state is removed) for tokens,
   * noting the refresh token's life from `now`; the profile is not read here.
   */
  async exchangeCode(href: string, now: number): Promise<User> {
    const answer = await this.#client.processSigninResponse(href).catch(rethrowTokenFree)
    return withRefreshLife(new User(answer), (answer as { refresh_token_expires_in?: unknown }).refresh_token_expires_in, now)
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
