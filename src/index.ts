// echo-rtk: React components, the Redux Toolkit store, the RTK Query API and the OIDC session,
// plus everything in echo-rtk/client. The build prepends 'use client' (tsup.config.ts).
// Everything in echo-rtk/client, whose names are listed one by one in client.ts; one list, so the
// two entries cannot drift apart (test/index.test.ts snapshots both surfaces).
export * from './client'
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
/** RTK Query's marker for a query hook to skip (`useGetAppQuery(appId ?? skipToken)`), re-exported. */
export { skipToken } from '@reduxjs/toolkit/query'
export type { EchoUser, UserInfoClaims } from './auth/echoUser'
export type { SignInOptions, SignInSource } from './auth/sessionReporter'
export type { EchoEnvironment, WakeCause } from './auth/environment'
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
  selectCredit,
  selectIsAuthenticated,
  selectIsBalanceLoading,
  selectIsInsufficientFunds,
  selectIsReconnecting,
} from './store/selectors'
export { createEchoMiddleware, echoMiddleware, startEchoSession, stopEchoSession } from './store/middleware/echoMiddleware'
export type { EchoMiddleware, EchoMiddlewareOptions } from './store/middleware/echoMiddleware'
export { createPaymentLink, getEchoFetch, getEchoRouter, getToken, refreshBalance, signIn, signOut } from './store/thunks'
export type { CreatePaymentLinkOptions } from './store/thunks'
export type { CheckoutIn } from './api/paymentLinks'
export { EchoAccount } from './components/EchoAccount'
export type { EchoAccountProps } from './components/EchoAccount'
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
export { useEchoFetch } from './components/useEchoFetch'
export { useEchoModelProvider } from './components/useEchoModelProvider'
export { useEchoRouter } from './components/useEchoRouter'
export type { UseEchoResult } from './components/useEcho'
export type { OpenCheckoutOptions } from './components/openCheckout'
export { insufficientFundsDetected } from './store/balanceSlice'
export { DISPLAY_TEXT_LIMIT, toDisplayText } from './auth/displayText'
