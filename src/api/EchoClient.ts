import { DEFAULT_API_URL, httpUrl, pageOrigin } from '../config'
import { createAuthorizedSend, type AuthorizedSend } from './authorizedFetch'
import type { RefreshCoordinatorOptions } from './refreshCoordinator'
import { requestJson, type JsonRequest } from './requestJson'
import type { FetchFunction, TokenProvider } from './tokenProvider'
import type {
  AppList,
  Balance,
  EchoAccount,
  EchoApp,
  FreeTierBalance,
  PaymentLinkRequest,
  PaymentLinkResponse,
  ReferralRequest,
  ReferralResponse,
  SupportedModelsResponse,
} from './wireTypes'

/** The payment description when the caller gives none (SPEC §5). */
export const DEFAULT_PAYMENT_DESCRIPTION = 'Echo Credits'

/** Options of {@link EchoClient}: an API key, or a token provider for a signed-in user. */
export interface EchoClientOptions extends RefreshCoordinatorOptions {
  /** A fixed API key. A 401 with it is final: there is nothing to refresh. */
  apiKey?: string
  /** The signed-in user's tokens; a 401 triggers the one shared refresh. */
  tokenProvider?: TokenProvider
  /** Echo's API host. Defaults to {@link DEFAULT_API_URL}. */
  apiUrl?: string
  /** The `fetch` to send with; the global `fetch`, looked up at call time, when left out. */
  fetch?: FetchFunction
}

/** Per-call options. */
export interface RequestOptions {
  /** Cancels the call; it then rejects with an `EchoError` for which `isAbortError()` is true. */
  signal?: AbortSignal
}

/** The list answer as the live server sends it (DESIGN §8); SPEC §7 gives `{ apps }`. */
interface PagedApps {
  items: EchoApp[]
}

/**
 * Echo's API without React: apps, balance, models, payments and the user.
 *
 * @example
 * const client = new EchoClient({ tokenProvider })
 * const { balance } = await client.balance.get()
 */
export class EchoClient {
  /**
   * A `fetch` with this client's token and its one shared refresh, for official SDKs and any other
   * URL: a 401 seen here and one seen by `balance.get()` lead to a single refresh.
   */
  readonly fetch: FetchFunction
  readonly apps: {
    list(options?: RequestOptions): Promise<AppList>
    get(id: string, options?: RequestOptions): Promise<EchoApp>
  }
  readonly balance: {
    get(options?: RequestOptions): Promise<Balance>
    getFree(echoAppId: string, options?: RequestOptions): Promise<FreeTierBalance>
  }
  readonly models: {
    supported(options?: RequestOptions): Promise<SupportedModelsResponse>
  }
  readonly payments: {
    /** Refuses an amount that is not a finite number >= 1 before sending anything. */
    createPaymentLink(request: PaymentLinkRequest, options?: RequestOptions): Promise<PaymentLinkResponse>
  }
  readonly users: {
    get(options?: RequestOptions): Promise<EchoAccount>
    registerReferral(request: ReferralRequest, options?: RequestOptions): Promise<ReferralResponse>
  }

  constructor({ apiKey, tokenProvider, apiUrl = DEFAULT_API_URL, fetch, ...options }: EchoClientOptions) {
    if (!apiKey && !tokenProvider) throw new Error('No API key or token provider provided')
    const baseUrl = httpUrl('apiUrl', apiUrl)
    const sendAuthorized: AuthorizedSend = tokenProvider
      ? createAuthorizedSend({ tokenProvider, ...options, ...(fetch ? { fetch } : {}) })
      : createAuthorizedSend({ tokenProvider: apiKeyTokens(apiKey!), canRefresh: false, ...(fetch ? { fetch } : {}) })
    this.fetch = async (input, init) => (await sendAuthorized(input, init)).response
    const call = <T>(request: JsonRequest, { signal }: RequestOptions = {}) =>
      requestJson<T>(sendAuthorized, baseUrl, { ...request, signal })

    this.apps = {
      list: async (options) => {
        const answer = await call<AppList | PagedApps>({ method: 'GET', path: '/api/v1/apps', action: 'listing apps' }, options)
        return { apps: 'apps' in answer ? answer.apps : answer.items }
      },
      get: async (id, options) =>
        call({ method: 'GET', path: `/api/v1/apps/${encodeURIComponent(requireText('id', id, 'apps.get'))}`, action: 'fetching app' }, options),
    }
    this.balance = {
      get: async (options) => call({ method: 'GET', path: '/api/v1/balance', action: 'fetching balance' }, options),
      getFree: async (echoAppId, options) =>
        call(
          {
            method: 'POST',
            path: '/api/v1/balance/free',
            body: { echoAppId: requireText('echoAppId', echoAppId, 'balance.getFree') },
            action: 'fetching free-tier balance',
          },
          options,
        ),
    }
    this.models = {
      supported: async (options) => call({ method: 'GET', path: '/api/v1/supported-models', action: 'fetching supported models' }, options),
    }
    this.payments = {
      createPaymentLink: async (request, options) =>
        call({ method: 'POST', path: '/api/v1/stripe/payment-link', body: paymentLinkBody(request), action: 'creating payment link' }, options),
    }
    this.users = {
      get: async (options) => call({ method: 'GET', path: '/api/v1/user', action: 'fetching user' }, options),
      registerReferral: async ({ echoAppId, code }, options) =>
        call(
          {
            method: 'POST',
            path: '/api/v1/user/referral',
            body: { echoAppId: requireText('echoAppId', echoAppId, 'users.registerReferral'), code: requireText('code', code, 'users.registerReferral') },
            action: 'registering referral',
          },
          options,
        ),
    }
  }
}

/**
 * The body of a payment-link request with its defaults; refuses an amount that cannot be charged.
 * @internal
 */
export function paymentLinkBody({ amount, description = DEFAULT_PAYMENT_DESCRIPTION, successUrl = pageOrigin() }: PaymentLinkRequest): PaymentLinkRequest {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 1) {
    throw new RangeError(`The payment amount must be a finite number of US dollars, at least 1 (got ${String(amount)})`)
  }
  return successUrl === undefined ? { amount, description } : { amount, description, successUrl }
}

function apiKeyTokens(apiKey: string): TokenProvider {
  return {
    getAccessToken: () => Promise.resolve(apiKey),
    refreshToken: () => Promise.reject(new Error('An API key cannot be refreshed')),
  }
}

function requireText(field: string, value: unknown, call: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${call} needs ${field} as a non-empty string (got ${JSON.stringify(value) ?? String(value)})`)
  }
  return value
}
