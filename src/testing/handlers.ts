import type { HttpHandler } from 'msw'

import { apiHandlers } from './apiHandlers'
import { echoEndpoints } from './endpoints'
import { createMockEcho, type EchoHandlersOptions, type EchoRecordedRequest } from './mockEcho'
import { oauthHandlers } from './oauthHandlers'
import { routerHandlers } from './routerHandlers'

/** msw handlers that play Echo, and the record of what the app sent them. */
export type EchoHandlers = HttpHandler[] & {
  /** Every request the app made to this Echo, in order: method, path, body, token. */
  readonly requests: EchoRecordedRequest[]
}

/**
 * msw handlers that answer like Echo: OAuth (authorize with PKCE, the token endpoint, userinfo),
 * the eight `/api/v1` calls, and the router's chat, responses, messages and Google endpoints
 * (streamed when asked). Pass your provider's config so everything points at the same Echo, and a
 * scenario to play (a balance, a free tier, out of credits, failures, a token refused once, a
 * refused refresh, a paced stream). The array it returns also records the requests it answered.
 *
 * @example
 * const echo = echoHandlers({ ...config, balance: 42 })
 * const server = setupServer(...echo)
 * // ... then: expect(echo.requests).toContainEqual(expect.objectContaining({ path: '/api/v1/stripe/payment-link', body: expect.objectContaining({ amount: 25 }) }))
 */
export function echoHandlers(options: EchoHandlersOptions = {}): EchoHandlers {
  const echo = createMockEcho(options)
  const urls = echoEndpoints(options)
  const handlers = [...oauthHandlers(echo, urls), ...apiHandlers(echo, urls), ...routerHandlers(echo, urls)]
  return Object.assign(handlers, { requests: echo.requests })
}
