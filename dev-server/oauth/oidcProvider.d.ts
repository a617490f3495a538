// oidc-provider ships no types and @types/oidc-provider is not installed: this declares the part of
// oidc-provider 9 the dev server uses (oidc.mjs, oidcStore.mjs, interactions.mjs, accessTokens.mjs),
// with the names @types/oidc-provider gives them, so that checkJs can check the calls. Widen it when
// the dev server uses more of the library.

declare module 'oidc-provider' {
  import type { KeyObject } from 'node:crypto'
  import type { IncomingMessage, ServerResponse } from 'node:http'

  /** The part of Koa's context (oidc-provider is a Koa app) that the dev server's middleware reads and writes. */
  export interface KoaContextWithOIDC {
    readonly path: string
    readonly method: string
    querystring: string
    body: unknown
    type: string
    readonly response: { is(...types: string[]): string | false | null }
    /** oidc-provider's part of the context, on its own routes: the request's parameters once read. */
    readonly oidc?: { readonly params?: Record<string, unknown> }
  }

  /** What the adapter stores for each model (Session, Grant, RefreshToken, ...). */
  export interface AdapterPayload {
    uid?: string
    grantId?: string
    consumed?: unknown
    [key: string]: unknown
  }

  /** The storage oidc-provider calls, one instance per model name. */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>
    find(id: string): Promise<AdapterPayload | undefined>
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>
    findByUid(uid: string): Promise<AdapterPayload | undefined>
    consume(id: string): Promise<void>
    destroy(id: string): Promise<void>
    revokeByGrantId(grantId: string): Promise<void>
  }

  export type AdapterConstructor = new (model: string) => Adapter

  export class Client {
    readonly clientId: string
    redirectUriAllowed(redirectUri: string): boolean
    postLogoutRedirectUriAllowed(postLogoutRedirectUri: string): boolean
    grantTypeAllowed(grantType: string): boolean
  }

  export class Grant {
    constructor(properties?: { accountId?: string; clientId?: string })
    static find(id: string): Promise<Grant | undefined>
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    addResourceScope(resource: string, scope: string): void
    /** Stores the grant; resolves to its id. */
    save(): Promise<string>
  }

  export class AuthorizationCode {
    static find(value: string, options?: { ignoreExpiration?: boolean }): Promise<AuthorizationCode | undefined>
    readonly codeChallenge?: string
  }

  export class AccessToken {
    static find(value: string): Promise<AccessToken | undefined>
    readonly jti: string
    readonly accountId: string
    readonly clientId: string
    readonly grantId?: string
    readonly scope?: string
    /** Epoch seconds. */
    readonly exp?: number
    readonly isExpired: boolean
  }

  /** An authorization code or a refresh token, as `issueRefreshToken` and `expiresWithSession` see it. */
  export interface BaseToken {
    readonly scopes: Set<string>
  }

  export interface PromptDetail {
    name: 'login' | 'consent' | (string & {})
    reasons: string[]
    details: Record<string, unknown>
  }

  export interface Interaction {
    uid: string
    prompt: PromptDetail
    params: Record<string, unknown>
    grantId?: string
    session?: { accountId: string; uid: string }
  }

  export interface InteractionResults {
    login?: { accountId: string }
    consent?: { grantId: string }
    error?: string
    error_description?: string
  }

  export interface ErrorOut {
    error?: string
    error_description?: string
  }

  export interface Account {
    accountId: string
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>
  }

  export interface ResourceServer {
    scope: string
    audience?: string
    accessTokenTTL?: number
    accessTokenFormat?: 'opaque' | 'jwt'
    /** `key`: the secret for an HS* algorithm; other algorithms take the provider's JWKS key. */
    jwt?: { sign?: { alg?: string; key?: KeyObject; kid?: string } }
  }

  /** A JWT access token before it is signed; the customizer may replace the header's fields and the payload. */
  export interface StructuredJwt {
    header?: Record<string, unknown>
    payload: Record<string, unknown>
  }

  export type JwtCustomizer = (ctx: KoaContextWithOIDC, token: AccessToken, jwt: StructuredJwt) => void | Promise<void>

  export interface JWK {
    kid?: string
    alg?: string
    use?: string
    kty?: string
    [parameter: string]: unknown
  }

  export interface ClientMetadata {
    client_id: string
    client_name?: string
    application_type?: 'web' | 'native'
    token_endpoint_auth_method?: string
    grant_types?: string[]
    response_types?: string[]
    redirect_uris?: string[]
    post_logout_redirect_uris?: string[]
  }

  /** The options the dev server sets; oidc-provider has many more. */
  export interface Configuration {
    adapter?: AdapterConstructor
    routes?: {
      authorization?: string
      token?: string
      jwks?: string
      end_session?: string
      revocation?: string
      userinfo?: string
    }
    clients?: ClientMetadata[]
    scopes?: string[]
    findAccount?: (ctx: KoaContextWithOIDC, sub: string) => Account | undefined | Promise<Account | undefined>
    jwks?: { keys: JWK[] }
    cookies?: { keys?: string[] }
    pkce?: { required?: (ctx: KoaContextWithOIDC, client: Client) => boolean }
    allowOmittingSingleRegisteredRedirectUri?: boolean
    rotateRefreshToken?: boolean
    expiresWithSession?: (ctx: KoaContextWithOIDC, code: BaseToken) => boolean
    issueRefreshToken?: (ctx: KoaContextWithOIDC, client: Client, code: BaseToken) => boolean
    clientBasedCORS?: (ctx: KoaContextWithOIDC, origin: string, client: Client) => boolean
    ttl?: {
      AccessToken?: number
      AuthorizationCode?: number
      Interaction?: number
      Session?: number
      Grant?: number
      RefreshToken?: number
    }
    interactions?: { url?: (ctx: KoaContextWithOIDC, interaction: Interaction) => string }
    renderError?: (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => void | Promise<void>
    formats?: { customizers?: { jwt?: JwtCustomizer } }
    discovery?: Record<string, unknown>
    features?: {
      devInteractions?: { enabled?: boolean }
      userinfo?: { enabled?: boolean }
      revocation?: { enabled?: boolean }
      rpInitiatedLogout?: {
        enabled?: boolean
        logoutSource?: (ctx: KoaContextWithOIDC, form: string) => void | Promise<void>
        postLogoutSuccessSource?: (ctx: KoaContextWithOIDC) => void | Promise<void>
      }
      resourceIndicators?: {
        enabled?: boolean
        defaultResource?: (ctx: KoaContextWithOIDC, client: Client) => string | string[] | undefined
        useGrantedResource?: (ctx: KoaContextWithOIDC, model: BaseToken) => boolean
        getResourceServerInfo?: (ctx: KoaContextWithOIDC, resourceIndicator: string, client: Client) => ResourceServer
      }
    }
  }

  /** Koa middleware on the provider's app. */
  export type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>

  export namespace errors {
    class InvalidTarget extends Error {
      constructor(description?: string)
    }
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration)
    /** Per provider: changing its prototype touches no other provider. */
    readonly Client: typeof Client
    readonly Grant: typeof Grant
    readonly AccessToken: typeof AccessToken
    readonly AuthorizationCode: typeof AuthorizationCode
    use(middleware: Middleware): this
    /** The provider as a node:http request listener. */
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    on(event: 'access_token.issued', listener: (token: AccessToken) => void): this
    /** `out`: the parameters of the redirect back to the app, which the listener may change. */
    on(event: 'authorization.success', listener: (ctx: KoaContextWithOIDC, out: Record<string, unknown>) => void): this
  }
}
