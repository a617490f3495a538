/**
 * Your own server, billed to the user: routes that spend the signed-in user's credits, and the
 * server-held session. No React, DOM or Redux.
 *
 * @module echo-rtk/server
 */
export { createEchoServer } from './server/createEchoServer'
export type {
  EchoRouteHandler,
  EchoServer,
  EchoServerOptions,
  EchoServerSessionOptions,
} from './server/createEchoServer'
export type { EchoServerRequest } from './server/bearerToken'
export type { EchoServerUser } from './server/serverUser'
export { EchoError, isInsufficientFunds } from './errors'
export type { EchoErrorCode, EchoErrorData } from './errors'
export type { EchoModelProviderSettings } from './api/modelProviderSettings'
export type { FetchFunction } from './api/tokenProvider'
export type { EchoRouter } from './api/router/EchoRouter'
export type { EchoClient } from './api/EchoClient'
