import { HttpResponse } from 'msw'

import type { UserInfoClaims } from '../auth/echoUser'
import type { EchoUserAccount } from '../api/wireTypes'
import { REFUSED_BY_ECHO } from '../echoPaths'
import { allowingOrigin } from './cors'
import type { EchoEndpointName, EchoTestConfig } from './endpoints'
import { echoFixtures } from './fixtures'

/** A failure an endpoint answers with instead of its answer: the status, and a body (JSON unless text). */
export interface EchoFailure {
  status: number
  body?: unknown
}

/**
 * The scenario Echo plays: the figures it answers, what fails, what it refuses. Given to
 * `echoHandlers`, and changed mid-test with `echo.set(...)`.
 */
export interface EchoScenario {
  /** The paid balance in US dollars. Defaults to 10. */
  balance?: number
  /** What is left of the app's free tier in US dollars (`null`: the app has none). Defaults to 0.5. */
  freeTier?: number | null
  /**
   * What the app's free-tier pool can still pay, in US dollars: the free tier's `spendPoolBalance`.
   * A free tier counts as credit only while the pool can pay for it. Defaults to 100.
   */
  spendPool?: number
  /**
   * The credit is spent, paid and free: the balance and the free tier read 0, and the router answers 402 (an HTML
   * page, as Echo's).
   */
  outOfCredits?: boolean
  /** The text every model call answers. Defaults to `echoFixtures.answer`. */
  answer?: string
  /**
   * What each answered model call costs the user, in US dollars, as Echo's router bills: from the
   * free tier first, then the paid balance (the balance and free-tier answers show it). Defaults to 0.
   */
  chargePerCall?: number
  /** The pause between the pieces of a streamed answer, in ms, so a test can watch it build up. Defaults to 0. */
  streamDelayMs?: number
  /** The claims `/api/oauth/userinfo` answers. Defaults to `echoFixtures.userinfo`. */
  userinfo?: UserInfoClaims
  /**
   * What `GET /api/v1/user` answers, over `echoFixtures.account` (say `{ image: 'https://...' }`: Echo keeps the
   * user's picture there, not in userinfo).
   */
  account?: Partial<EchoUserAccount>
  /** Endpoints that fail, by name, e.g. `{ balance: { status: 500, body: { message: 'Down' } } }`. */
  failures?: Partial<Record<EchoEndpointName, EchoFailure>>
  /** Refuse every refresh (`400 invalid_request`, as Echo does): a refresh ends the session. */
  refuseRefresh?: boolean
  /**
   * In server mode (`session: 'server'`): the user starts signed in on the app's server, before the
   * page's first call (as `seedEchoSession` stores one in browser mode).
   */
  signedIn?: boolean
  /**
   * The life of each access token the token endpoint issues (its `expires_in`), in seconds. Once it
   * has passed by `Date.now()` (so fake timers count), Echo answers that token 401. Defaults to 900.
   */
  expiresInSeconds?: number
}

/** Options of `echoHandlers`: where Echo is (your provider's config), and the scenario to play. */
export interface EchoHandlersOptions extends EchoTestConfig, EchoScenario {
  /**
   * Refuse the first access token Echo is shown (as if it had expired): the session refreshes once, and the calls go
   * through.
   */
  rejectFirstAccessToken?: boolean
}

/** One request a test made to Echo, as `echoHandlers(...).requests` records it. */
export interface EchoRecordedRequest {
  method: string
  /** The path, with the query when there is one: `/api/v1/balance`, `/models/gemini-2.5-flash:generateContent`. */
  path: string
  /** The JSON body, or the fields of a form (the token endpoint's); `undefined` when there is none. */
  body: unknown
  /** The bearer token sent, if any. */
  token: string | null
  /** When it reached Echo: `Date.now()` (epoch ms), so fake timers count. */
  at: number
  /** The status Echo answered with; absent only while the answer is being made. */
  status?: number
}

/** An endpoint held by `echo.hold(name)`: what a test sees while the app waits for Echo. */
export interface EchoHold {
  /** Resolves once a request to the endpoint has arrived and is held: the app is waiting now. */
  reached: Promise<void>
  /** Answers the held requests, as the scenario says at this moment; later requests are answered at once. */
  release(): void
}

/** The state one `echoHandlers(...)` call plays against. @internal */
export interface MockEcho {
  /** The scenario now: a copy of the options, which `set` changes. */
  options: EchoHandlersOptions
  requests: EchoRecordedRequest[]
  /** Token pairs issued so far (the seeded pair is number 0). */
  issued: number
  /** When each access token the token endpoint issued stops working (epoch ms). */
  accessTokenExpiry: Map<string, number>
  /** The one refresh token a refresh grant may present: the latest issued, the seeded one at start. */
  liveRefreshToken: string
  /** Access tokens refused with 401. */
  refused: Set<string>
  /** Whether an access token has been seen yet (for `rejectFirstAccessToken`). */
  sawToken: boolean
  codes: Map<string, { challenge: string; clientId: string; redirectUri: string }>
  paymentLinks: number
  /** The endpoints held now, each with what a request arriving there waits on. */
  holds: Map<EchoEndpointName, { arrived(): void; released: Promise<void> }>
}

/** @internal */
export function createMockEcho(options: EchoHandlersOptions): MockEcho {
  return {
    options: { ...options },
    requests: [],
    issued: 0,
    accessTokenExpiry: new Map(),
    liveRefreshToken: echoFixtures.tokens.seeded.refreshToken,
    refused: new Set(),
    sawToken: false,
    codes: new Map(),
    paymentLinks: 0,
    holds: new Map(),
  }
}

/** Holds the answers of endpoint `name` until `release()`: see `EchoHandlers.hold`. @internal */
export function holdEndpoint(echo: MockEcho, name: EchoEndpointName): EchoHold {
  let arrived = (): void => undefined
  let release = (): void => undefined
  const reached = new Promise<void>((resolve) => (arrived = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  const hold = { arrived, released }
  echo.holds.set(name, hold)
  return {
    reached,
    release: () => {
      if (echo.holds.get(name) === hold) echo.holds.delete(name)
      release()
    },
  }
}

/**
 * An msw resolver for endpoint `name`: notes the request (its body read from a copy), waits while
 * the endpoint is held, then runs `answer` and notes the status it answered with, so the record is
 * whole when the app sees the answer.
 * @internal
 */
export function recorded(
  echo: MockEcho,
  name: EchoEndpointName,
  answer: (seen: EchoRecordedRequest, request: Request) => Response | Promise<Response>,
) {
  return async ({ request }: { request: Request }): Promise<Response> => {
    const seen = await record(echo, request)
    const hold = echo.holds.get(name)
    if (hold !== undefined) {
      hold.arrived()
      await hold.released
    }
    const response = allowingOrigin(request, await answer(seen, request))
    seen.status = response.status
    return response
  }
}

async function record(echo: MockEcho, request: Request): Promise<EchoRecordedRequest> {
  const text = await request.clone().text()
  const type = request.headers.get('content-type') ?? ''
  let body: unknown
  if (text !== '') {
    try {
      body = type.includes('application/x-www-form-urlencoded')
        ? Object.fromEntries(new URLSearchParams(text))
        : JSON.parse(text)
    } catch {
      body = text
    }
  }
  const url = new URL(request.url)
  const seen = {
    method: request.method,
    path: url.pathname + url.search,
    body,
    token: bearerOf(request),
    at: Date.now(),
  }
  echo.requests.push(seen)
  return seen
}

/**
 * Whether the request's token is one Echo takes now: any token but a refused one, one it issued
 * that has expired, or the token no Echo issues that echo-rtk's expired-token moment sends. With
 * `rejectFirstAccessToken`, the first token shown is refused from then on.
 * @internal
 */
export function tokenAccepted(echo: MockEcho, token: string | null): boolean {
  if (token === null || token === REFUSED_BY_ECHO) return false
  if (echo.options.rejectFirstAccessToken && !echo.sawToken) echo.refused.add(token)
  echo.sawToken = true
  const expiresAt = echo.accessTokenExpiry.get(token)
  return !echo.refused.has(token) && (expiresAt === undefined || expiresAt > Date.now())
}

/** The failure configured for `name`, as a response, if any. @internal */
export function failureOf(echo: MockEcho, name: EchoEndpointName): Response | undefined {
  const failure = echo.options.failures?.[name]
  if (failure === undefined) return undefined
  return typeof failure.body === 'string'
    ? new HttpResponse(failure.body, { status: failure.status })
    : HttpResponse.json(failure.body ?? { message: 'Failed' }, { status: failure.status })
}

/** The userinfo claims the mock answers. @internal */
export const userinfoOf = (echo: MockEcho): UserInfoClaims => echo.options.userinfo ?? echoFixtures.userinfo

export function unauthorized() {
  return HttpResponse.json({ message: 'Unauthorized' }, { status: 401 })
}

function bearerOf(request: Request): string | null {
  return /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? null
}
