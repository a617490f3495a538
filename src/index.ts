// echo-rtk: React components, the Redux Toolkit store, the RTK Query API and the OIDC session,
// plus everything in echo-rtk/client. The build prepends 'use client' (tsup.config.ts).
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

export {
  echoApi,
  useCreatePaymentLinkMutation,
  useGetAppQuery,
  useGetAppsQuery,
  useGetBalanceQuery,
  useGetFreeBalanceQuery,
  useGetSupportedModelsQuery,
  useGetUserQuery,
  useRegisterReferralMutation,
} from './api/echoApi'
export type { EchoUser } from './auth/echoUser'
export type { EchoEnvironment } from './auth/environment'
export { authSlice, signedIn, signedOut, signInFailed, signInStarted, tokenRefreshed, tokenRefreshStarted } from './store/authSlice'
export type { AuthState, AuthStatus, SignedInPayload, TokenRefreshedPayload } from './store/authSlice'
export { balanceSlice } from './store/balanceSlice'
export type { BalanceState, BalanceStatus } from './store/balanceSlice'
export { createEchoStore } from './store/createEchoStore'
export type { CreateEchoStoreOptions, EchoStore, PreloadedEchoState } from './store/createEchoStore'
export { echoDevToolsOptions } from './store/devTools'
export { echoReducer, echoReducers } from './store/echoReducer'
export type { EchoApiState, EchoRootState, EchoState } from './store/echoReducer'
export {
  selectAuthStatus,
  selectBalance,
  selectEchoError,
  selectEchoUser,
  selectFreeTierBalance,
  selectIsAuthenticated,
} from './store/selectors'
export { createEchoMiddleware, echoMiddleware, startEchoSession, stopEchoSession } from './store/sessionMiddleware'
export type { EchoMiddleware, EchoMiddlewareOptions } from './store/sessionMiddleware'
export { createPaymentLink, getToken, refreshBalance, signIn, signOut } from './store/thunks'
export { EchoBalance, formatUsd } from './components/EchoBalance'
export type { EchoBalanceProps } from './components/EchoBalance'
export { EchoProvider } from './components/EchoProvider'
export type { EchoProviderProps } from './components/EchoProvider'
export { EchoSignIn } from './components/EchoSignIn'
export type { EchoSignInProps } from './components/EchoSignIn'
export { EchoSignOut } from './components/EchoSignOut'
export type { EchoSignOutProps } from './components/EchoSignOut'
export { EchoTopUp } from './components/EchoTopUp'
export type { EchoTopUpProps } from './components/EchoTopUp'
export { Logo } from './components/Logo'
export type { LogoProps } from './components/Logo'
export { SignedIn, SignedOut } from './components/SignedIn'
export type { AuthGateProps } from './components/SignedIn'
export { useEcho } from './components/useEcho'
export type { UseEchoResult } from './components/useEcho'
export { insufficientFundsDetected } from './store/balanceSlice'
export { DISPLAY_TEXT_LIMIT, toDisplayText } from './auth/displayText'
