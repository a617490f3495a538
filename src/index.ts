// echo-rtk: React components, the Redux Toolkit store, the RTK Query API and the OIDC session, plus
// echo-rtk/client's errors, config and types. The clients made without a store (EchoClient,
// createEchoFetch, createEchoRouter) come from echo-rtk/client only: re-exported here, a bundler that
// splits the app (esbuild) would put their code, and the refresh's, in the first load of every app,
// which has the session's own. The build prepends 'use client' (tsup.config.ts).
// Every name is listed one by one, so the public surface is what this file says (api/echo-rtk.api.md
// records it; test/index.test.ts checks which of echo-rtk/client's names echo-rtk holds).
/**
 * React components and hooks, the Redux Toolkit store and its RTK Query API, and the user's session.
 *
 * @module echo-rtk
 */
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
} from './api/query/echoApi'
export type { EchoApi } from './api/query/echoApi'
/** RTK Query's marker for a query hook to skip (`useGetAppQuery(appId ?? skipToken)`), re-exported. */
export { skipToken } from '@reduxjs/toolkit/query'
export type { EchoUser } from './auth/echoUser'
export type { SignInOptions, SignInReturnTo } from './auth/EchoSession'
export type { SessionCause } from './auth/causes'
export type { AuthState, AuthStatus } from './store/authSlice'
export { authSlice, balanceSlice } from './store/sliceViews'
export type { EchoSliceView } from './store/sliceViews'
export type { BalanceState, BalanceStatus } from './store/balanceSlice'
export type { EchoCharge } from './store/money/moneySlice'
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
  selectCredit,
  selectIsAuthenticated,
  selectIsBalanceLoading,
  selectIsInsufficientFunds,
  selectIsReconnecting,
  selectIsSigningIn,
  selectDailyLimit,
  selectIsLowBalance,
  selectIsSpendLimitReached,
} from './store/selectors'
export {
  createEchoMiddleware,
  echoMiddleware,
  startEchoSession,
  stopEchoSession,
} from './store/middleware/echoMiddleware'
export type { EchoMiddlewareOptions } from './store/middleware/echoMiddleware'
export {
  createPaymentLink,
  getEchoFetch,
  getEchoRouter,
  getToken,
  refreshBalance,
  setDailyLimit,
  signIn,
  signOut,
} from './store/thunks'
export type { CreatePaymentLinkOptions } from './store/thunks'
export { EchoAccount } from './components/EchoAccount'
export type { EchoAccountProps } from './components/EchoAccount'
export { EchoBalance, formatUsd } from './components/EchoBalance'
export type { FormatUsdOptions } from './components/EchoBalance'
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
export { useEchoSpend } from './components/useEchoSpend'
export type { UseEchoSpendResult } from './components/useEchoSpend'
export { EchoSpend } from './components/EchoSpend'
export type { EchoSpendProps } from './components/EchoSpend'
export { useEchoFetch } from './components/useEchoFetch'
export { useEchoModelProvider } from './components/useEchoModelProvider'
export { useEchoRouter } from './components/useEchoRouter'
export type { UseEchoResult } from './components/useEcho'
export type { OpenCheckoutOptions } from './components/openCheckout'
export { insufficientFundsDetected } from './store/balanceSlice'

// Everything in echo-rtk/client (client.ts), the same names.
export { DEFAULT_API_URL, DEFAULT_ROUTER_URL, DEFAULT_SCOPE, resolveConfig } from './config'
export type { EchoConfig, ResolvedEchoConfig, SignInMode } from './config'
export { EchoError, isAbortError, isInsufficientFunds, userMessageOf } from './errors'
export type { EchoErrorCode, EchoErrorData } from './errors'
export type { EchoErrorReason } from './errorReasons'
export { DEFAULT_PAYMENT_DESCRIPTION } from './api/echoRequests'
export type { RequestOptions } from './api/EchoClient'
export type { FetchFunction, RefreshCause, TokenProvider } from './api/tokenProvider'
export type { EchoModelProviderSettings } from './api/modelProviderSettings'
export type { EchoRouter } from './api/router/EchoRouter'
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
export { echoDevMoments } from './store/dev/moments'
export type { EchoDevMoment } from './store/dev/moments'
