// echo-rtk/client: Echo's API without React or Redux; runs in browsers and on Node >= 20.
export { DEFAULT_API_URL, DEFAULT_ROUTER_URL, DEFAULT_SCOPE, resolveConfig } from './config'
export type { ConfigEnvironment, EchoConfig, ResolvedEchoConfig } from './config'
export { EchoError, isAbortError, isInsufficientFunds } from './errors'
export type { EchoErrorCode, EchoErrorData, EchoErrorInit } from './errors'
export { createEchoFetch } from './api/authorizedFetch'
export type { EchoFetchOptions } from './api/authorizedFetch'
export { EchoClient } from './api/EchoClient'
export { DEFAULT_PAYMENT_DESCRIPTION } from './api/echoRequests'
export type { EchoClientOptions, RequestOptions } from './api/EchoClient'
export { REFRESH_TIMEOUT_MS } from './api/refreshCoordinator'
export type { RefreshCoordinatorOptions } from './api/refreshCoordinator'
export type { FetchFunction, TokenProvider } from './api/tokenProvider'
export type {
  AppList,
  Balance,
  EchoAccount,
  EchoApp,
  FreeTierBalance,
  PaymentLink,
  PaymentLinkRequest,
  PaymentLinkResponse,
  ReferralRequest,
  ReferralResponse,
  SupportedModel,
  SupportedModelsResponse,
  UserSpendInfo,
} from './api/wireTypes'
