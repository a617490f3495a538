import { ceilingOption, fetchUnderCeiling } from './ceilingGate'
import { EchoError } from '../errors'
import { RefreshCoordinator, type RefreshCoordinatorOptions } from './refreshCoordinator'
import { assertTokenOrigin, headersOf, originOf, originsOf, saysTokenRefused } from './tokenOrigins'
import { requireTokenProvider, type FetchFunction, type TokenProvider } from './tokenProvider'

/** Credential headers official SDKs set from their `apiKey`; the user's token replaces them. */
const SDK_CREDENTIAL_HEADERS = ['x-api-key', 'api-key', 'x-goog-api-key']

/** What one authorized request ended with; `refreshError` is set when a 401 could not be cured. */
export interface AuthorizedOutcome {
  response: Response
  refreshError?: Error
}

/** @internal */
export type AuthorizedSend = (input: RequestInfo | URL, init?: RequestInit) => Promise<AuthorizedOutcome>

/** Options of {@link createEchoFetch}. */
export interface EchoFetchOptions extends RefreshCoordinatorOptions {
  /** Where the token comes from and how it is refreshed. */
  tokenProvider: TokenProvider
  /** The `fetch` to send with; the global `fetch`, looked up at call time, when left out. */
  fetch?: FetchFunction | undefined
  /**
   * The only origins the token may go to, e.g. `[DEFAULT_API_URL, DEFAULT_ROUTER_URL]`. A request
   * anywhere else rejects with an `EchoError` naming its origin, and nothing is sent. Any origin
   * when left out.
   */
  allowedOrigins?: readonly string[] | undefined
  /**
   * Your own servers that may receive the token too, e.g. `['https://app.example.com']` (their
   * routes check it with `echo-rtk/server`). From there a 401 is refreshed for only when it says
   * the token was refused (`WWW-Authenticate: Bearer error="invalid_token"`); the app's own 401s
   * are left alone.
   */
  serverOrigins?: readonly string[] | undefined
  /**
   * The most one model call may cost, in US dollars: priced from Echo's prices before it is sent, a call is refused
   * (reason `'call-cost-limit'`) or sent with its output limit lowered; a call's `X-Echo-Max-Cost` header lowers it
   * for that call. None when left out (docs/api.md, "The price ceiling").
   */
  maxCallCost?: number | null | undefined
}

/** @internal */
export interface AuthorizedSendOptions extends Omit<EchoFetchOptions, 'allowedOrigins' | 'serverOrigins'> {
  /** `false` for a fixed API key: a 401 is final, there is nothing to refresh. */
  canRefresh?: boolean
  /** Whether a 401 to `input` means the token was refused (and is worth a refresh); any 401 when left out. */
  tokenRefused?: ((input: RequestInfo | URL, response: Response) => boolean) | undefined
}

/**
 * The one authorized fetch: sends `Authorization: Bearer <token>`; on a 401, waits for the single
 * shared refresh and retries once, marked `X-Retry: true`, never again.
 * @internal
 */
export function createAuthorizedSend({
  tokenProvider,
  fetch,
  canRefresh = true,
  tokenRefused,
  ...options
}: AuthorizedSendOptions): AuthorizedSend {
  const fetchFn: FetchFunction = fetch ?? ((input, init) => globalThis.fetch(input, init))
  const coordinator = canRefresh ? RefreshCoordinator.for(tokenProvider, options) : undefined
  const tokens = coordinator ?? tokenProvider

  return async function sendAuthorized(input, init = {}) {
    const signal = init.signal ?? (input instanceof Request ? input.signal : undefined)
    await coordinator?.waitForIdle(signal)
    const token = await tokens.getAccessToken()
    // Echo's router answers a token-less call with 402, which would read as "out of credits".
    if (token === null || token === '')
      throw new EchoError({ code: 'UNKNOWN_ERROR', reason: 'not-authenticated', message: 'Not authenticated' })
    const replay = input instanceof Request && input.body !== null ? input.clone() : input
    const response = await fetchFn(...withToken(input, init, token, false))
    if (response.status !== 401 || coordinator === undefined || tokenRefused?.(input, response) === false)
      return { response }
    if (signal?.aborted) throw signal.reason

    let freshToken: string
    try {
      freshToken = await coordinator.tokenAfter(token, signal, {
        by: 'unauthorized',
        request: describeRequest(input, init),
      })
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      // The refresh could not reach the server: this call fails as one that got no answer would.
      if (error instanceof EchoError && error.code === 'NETWORK_ERROR') {
        void response.body?.cancel().catch(() => undefined)
        throw error
      }
      return { response, refreshError: error instanceof Error ? error : new Error(String(error)) }
    }
    // A streamed body has been spent by the first attempt; only the refresh is of use then.
    if (init.body instanceof ReadableStream) return { response }
    void response.body?.cancel().catch(() => undefined)
    return { response: await fetchFn(...withToken(replay, init, freshToken, true)) }
  }
}

/**
 * A `fetch` that sends the user's token and follows the refresh rules, for official provider SDKs.
 * The token replaces any credential header the SDK sets from its `apiKey`.
 *
 * @example
 * const echoFetch = createEchoFetch({ tokenProvider, allowedOrigins: [DEFAULT_ROUTER_URL] })
 * const openai = new OpenAI({ apiKey: 'echo', baseURL: DEFAULT_ROUTER_URL, fetch: echoFetch })
 */
export function createEchoFetch(options: EchoFetchOptions): FetchFunction {
  const { allowedOrigins, serverOrigins, maxCallCost, ...sendOptions } = options ?? ({} as Partial<EchoFetchOptions>)
  const ceiling = ceilingOption("createEchoFetch's maxCallCost", maxCallCost)
  const servers = originsOf(serverOrigins ?? [], "createEchoFetch's serverOrigins")
  // From the app's own servers only a 401 that says so means the Echo token was refused.
  const tokenRefused =
    servers.length === 0
      ? undefined
      : (input: RequestInfo | URL, response: Response) =>
          !servers.includes(originOf(input) ?? '') || saysTokenRefused(response)
  const sendAuthorized = createAuthorizedSend({
    ...sendOptions,
    fetch: fetchUnderCeiling(sendOptions.fetch, ceiling),
    tokenRefused,
    tokenProvider: requireTokenProvider(options?.tokenProvider, 'createEchoFetch'),
  })
  const origins =
    allowedOrigins === undefined
      ? undefined
      : [...originsOf(allowedOrigins, "createEchoFetch's allowedOrigins"), ...servers]
  return async (input, init) => {
    if (origins !== undefined) assertTokenOrigin(input, origins)
    return (await sendAuthorized(input, init)).response
  }
}

/**
 * `fetch`'s arguments with the user's token as the bearer (replacing any SDK credential header),
 * marked as the one retry when `isRetry`.
 * @internal
 */
export function withToken(
  input: RequestInfo | URL,
  init: RequestInit,
  token: string,
  isRetry: boolean,
): [RequestInfo | URL, RequestInit] {
  const headers = headersOf(input, init)
  for (const name of SDK_CREDENTIAL_HEADERS) headers.delete(name)
  headers.set('Authorization', `Bearer ${token}`)
  // The mark tells the server, and our own logs, that this is the one retry after a refresh.
  if (isRetry) headers.set('X-Retry', 'true')
  return [input, { ...init, headers }]
}

/** `input`'s method and address without its query or hash: what a refresh after its 401 names as its cause. */
function describeRequest(input: RequestInfo | URL, init: RequestInit): string {
  const address = input instanceof Request ? input.url : input instanceof URL ? input.href : input
  const method = init.method ?? (input instanceof Request ? input.method : 'GET')
  const url = new URL(address, RELATIVE_BASE)
  return `${method.toUpperCase()} ${url.origin === RELATIVE_BASE ? '' : url.origin}${url.pathname}`
}

/** The base a relative address (a same-origin call) is read against: it names no origin. */
const RELATIVE_BASE = 'http://relative.invalid'
