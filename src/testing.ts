/**
 * An msw Echo and fixtures with Echo's wire shapes, for apps' own tests.
 *
 * @module echo-rtk/testing
 */
export { echoEndpoints } from './testing/endpoints'
export type { EchoEndpointName, EchoEndpoints, EchoTestConfig } from './testing/endpoints'
export { echoFixtures } from './testing/fixtures'
export type { EchoTestTokens } from './testing/fixtures'
export { echoHandlers } from './testing/handlers'
export type { EchoHandlers } from './testing/handlers'
export type { EchoFailure, EchoHandlersOptions, EchoHold, EchoRecordedRequest, EchoScenario } from './testing/mockEcho'
export { clearEchoSession, paidAtCheckout, resetEchoStore, seedEchoSession } from './testing/session'
export type { SeedEchoSessionOptions } from './testing/session'
export { echoSignIn } from './testing/signIn'
export type { EchoSignInFlow } from './testing/signIn'
export type { UserInfoClaims } from './auth/echoUser'
/** How long one refresh may take before it fails (10 s): to move a fake clock past a stuck refresh. */
export { REFRESH_TIMEOUT_MS } from './config'
/**
 * What `createEchoMiddleware({ environment })` and `createEchoStore({ environment })` take: parts of the browser a
 * test replaces.
 */
export type { EchoEnvironment, PageSignal, PopupWindow, WakeCause } from './auth/environment'
