/**
 * Echo's API without React or Redux: the client, the model router and the authorized fetch over a token
 * provider or an API key; runs in browsers and on Node.
 *
 * @module echo-rtk/client
 */
export { DEFAULT_API_URL, DEFAULT_ROUTER_URL, DEFAULT_SCOPE, resolveConfig } from './config'
export type { EchoConfig, ResolvedEchoConfig, SignInMode } from './config'
export { EchoError, isAbortError, isInsufficientFunds, userMessageOf } from './errors'
export type { EchoErrorCode, EchoErrorData } from './errors'
export type { EchoErrorReason } from './errorReasons'
export { createEchoFetch } from './api/authorizedFetch'
export type { EchoFetchOptions } from './api/authorizedFetch'
export { EchoClient } from './api/EchoClient'
export { DEFAULT_PAYMENT_DESCRIPTION } from './api/echoRequests'
export type { EchoClientOptions, RequestOptions } from './api/EchoClient'
export type { FetchFunction, RefreshCause, TokenProvider } from './api/tokenProvider'
export type { EchoModelProviderSettings } from './api/modelProviderSettings'
export { createEchoRouter } from './api/router/createEchoRouter'
export type { EchoRouter, EchoRouterOptions } from './api/router/EchoRouter'
export type { EchoStream } from './api/router/eventStream'
export type {
  Balance,
  EchoUserAccount,
  EchoApp,
  FreeTierBalance,
  PaymentLink,
  PaymentLinkRequest,
  ReferralResponse,
  SupportedModel,
  SupportedModels,
} from './api/wireTypes'
