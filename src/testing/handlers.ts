import type { HttpHandler } from 'msw'

import { apiHandlers } from './apiHandlers'
import { preflightHandlers } from './cors'
import { echoEndpoints, type EchoEndpointName } from './endpoints'
import {
  createMockEcho,
  holdEndpoint,
  type EchoHandlersOptions,
  type EchoHold,
  type EchoRecordedRequest,
  type EchoScenario,
} from './mockEcho'
import { oauthHandlers } from './oauthHandlers'
import { routerHandlers } from './routerHandlers'
import { serverSessionHandlers } from './serverHandlers'

/**
 * msw handlers that play Echo, the record of what the app sent them, and ways to change the scenario or hold an
 * endpoint mid-test.
 */
export type EchoHandlers = HttpHandler[] & {
  /**
   * Every request the app made to this Echo, in order: method, path, body, token, when it arrived
   * (`at`) and the status Echo answered (`status`). Count from it: the refresh grants are the token
   * requests whose body has `grant_type: 'refresh_token'`.
   */
  readonly requests: EchoRecordedRequest[]
  /**
   * Changes the scenario from the next request on: what is given replaces what `echoHandlers` was
   * passed (or the last `set`), the rest stays. For what happens mid-test: a top-up paid elsewhere,
   * Echo starting to refuse refreshes, an endpoint going down.
   *
   * @example
   * echo.set({ balance: 22.5 }) // the top-up landed
   * echo.set({ refuseRefresh: true }) // the session ends at its next refresh
   */
  set(changes: EchoScenario): void
  /**
   * Holds the answers of one endpoint from the next request on, until `release()`: for what the
   * app does while it waits for Echo (a busy button, a sign-out meanwhile, a refresh that takes
   * too long). `reached` resolves once a request is held. Released, the held requests are answered
   * as the scenario says then, and the endpoint answers at once again.
   *
   * @example
   * const balance = echo.hold('balance')
   * const refreshing = store.dispatch(refreshBalance())
   * await balance.reached
   * // ... the app is waiting for Echo now
   * balance.release()
   */
  hold(name: EchoEndpointName): EchoHold
}

/**
 * msw handlers that answer like Echo: OAuth (authorize with PKCE, the token endpoint, userinfo),
 * the eight `/api/v1` calls, and the router's chat, responses, messages and Google endpoints
 * (streamed when asked), each with Echo's CORS answers (its preflight too, for a DOM that sends one). Pass your
 * provider's config so everything points at the same Echo, and a
 * scenario to play (a balance, a free tier, out of credits, failures, a token refused once, a
 * refused refresh, short-lived tokens, a paced stream). The array it returns also records the
 * requests it answered, and `set` changes the scenario as the test goes.
 *
 * @example
 * const echo = echoHandlers({ ...config, balance: 42 })
 * const server = setupServer(...echo)
 * // ... then:
 * expect(echo.requests).toContainEqual(
 *   expect.objectContaining({ path: '/api/v1/stripe/payment-link', body: expect.objectContaining({ amount: 25 }) }),
 * )
 */
export function echoHandlers(options: EchoHandlersOptions = {}): EchoHandlers {
  const echo = createMockEcho(options)
  const urls = echoEndpoints(options)
  const handlers = [
    ...oauthHandlers(echo, urls),
    ...apiHandlers(echo, urls),
    ...routerHandlers(echo, urls),
    ...preflightHandlers(urls),
    ...(options.session === 'server' ? serverSessionHandlers(options) : []),
  ]
  return Object.assign(handlers, {
    requests: echo.requests,
    set: (changes: EchoScenario) => void Object.assign(echo.options, changes),
    hold: (name: EchoEndpointName) => holdEndpoint(echo, name),
  })
}
