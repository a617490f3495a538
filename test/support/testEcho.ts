import {
  echoHandlers,
  echoSignIn,
  type EchoHandlers,
  type EchoHandlersOptions,
  type EchoRecordedRequest,
} from 'echo-rtk/testing'

import { server } from './server'

export const ECHO = 'https://echo.test'
export const APP_ID = '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50'
export const APP_URL = 'http://localhost:3000'

/**
 * Puts echo-rtk/testing's Echo in front of the app for this test, at `ECHO` for `APP_ID`, with
 * the figures these tests were written for: $12.50 paid, and a free tier overspent to -$1 (which
 * nobody may be shown as less than $0.00).
 */
export function serveEcho(options: EchoHandlersOptions = {}): EchoHandlers {
  const echo = echoHandlers({ appId: APP_ID, apiUrl: ECHO, balance: 12.5, freeTier: -1, ...options })
  server.use(...echo)
  return echo
}

/**
 * What Echo's authorize page does for a signed-in user who consents, played by the served Echo:
 * the address bar then holds the way back to the app (code and state), which this returns.
 */
export async function backFromEcho(authorizeUrl: string): Promise<string> {
  const flow = echoSignIn()
  flow.navigate(authorizeUrl)
  return flow.backFromEcho()
}

/** The requests the served Echo answered at `path` (`/api/v1/balance`), in order. */
export const sentTo = (echo: EchoHandlers, path: string): EchoRecordedRequest[] =>
  echo.requests.filter((request) => request.path === path)

const grantsOf = (echo: EchoHandlers, grantType: string) =>
  sentTo(echo, '/api/oauth/token').filter(
    (request) => (request.body as { grant_type?: string } | undefined)?.grant_type === grantType,
  )

/** The refresh grants Echo was sent, in order: when each arrived (`at`), and whether Echo took it (`status` 200). */
export const refreshGrants = (echo: EchoHandlers): EchoRecordedRequest[] => grantsOf(echo, 'refresh_token')

/** The authorization codes the app exchanged at the token endpoint. */
export const codeExchanges = (echo: EchoHandlers): EchoRecordedRequest[] => grantsOf(echo, 'authorization_code')
