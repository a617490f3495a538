import { DEFAULT_API_URL, httpUrl } from '../config'
import { EchoError } from '../errors'
import { createAuthorizedSend, type AuthorizedSend } from './authorizedFetch'
import type { RefreshCoordinatorOptions } from './refreshCoordinator'
import {
  createPaymentLinkRequest,
  getAppRequest,
  getBalanceRequest,
  getFreeBalanceRequest,
  getSupportedModelsRequest,
  getUserRequest,
  listAppsRequest,
  registerReferralRequest,
  requestJson,
  type JsonRequest,
} from './echoRequests'
import { requireTokenProvider, type FetchFunction, type TokenProvider } from './tokenProvider'
import type {
  AppList,
  Balance,
  EchoUserAccount,
  EchoApp,
  FreeTierBalance,
  PaymentLinkRequest,
  PaymentLinkResponse,
  ReferralRequest,
  ReferralResponse,
  SupportedModels,
} from './wireTypes'

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
  /**
   * A model call's own price ceiling, in US dollars: sent as `X-Echo-Max-Cost`, it lowers the session's or
   * client's ceiling for this call (docs/api.md, "The price ceiling"). Router calls only.
   */
  maxCost?: number
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
    /** Echo's list, or where Echo has no route for it, the list Echo's own SDK ships (`source` says which). */
    supported(options?: RequestOptions): Promise<SupportedModels>
  }
  readonly payments: {
    /** Refuses an amount that is not a finite number >= 1 before sending anything. */
    createPaymentLink(request: PaymentLinkRequest, options?: RequestOptions): Promise<PaymentLinkResponse>
  }
  readonly users: {
    get(options?: RequestOptions): Promise<EchoUserAccount>
    registerReferral(request: ReferralRequest, options?: RequestOptions): Promise<ReferralResponse>
  }

  constructor(options: EchoClientOptions) {
    const { apiKey, tokenProvider, apiUrl = DEFAULT_API_URL, fetch, ...coordination } = options ?? {}
    if (!apiKey && !tokenProvider)
      throw new EchoError({
        code: 'UNKNOWN_ERROR',
        reason: 'misconfigured',
        message: 'No API key or token provider provided',
      })
    const baseUrl = httpUrl('apiUrl', apiUrl)
    const sendAuthorized: AuthorizedSend = tokenProvider
      ? createAuthorizedSend({
          tokenProvider: requireTokenProvider(tokenProvider, 'EchoClient'),
          ...coordination,
          fetch,
        })
      : createAuthorizedSend({ tokenProvider: apiKeyTokens(requireApiKey(apiKey)), canRefresh: false, fetch })
    this.fetch = async (input, init) => (await sendAuthorized(input, init)).response
    // The request is built inside the call, so input it refuses rejects as an EchoError too.
    const call = async <T>(buildRequest: () => JsonRequest, { signal }: RequestOptions = {}) => {
      let request: JsonRequest
      try {
        request = buildRequest()
      } catch (error) {
        throw EchoError.from(error)
      }
      return requestJson<T>(sendAuthorized, baseUrl, { ...request, signal })
    }

    this.apps = {
      list: async (options) => call(() => listAppsRequest(), options),
      get: async (id, options) => call(() => getAppRequest(id), options),
    }
    this.balance = {
      get: async (options) => call(() => getBalanceRequest(), options),
      getFree: async (echoAppId, options) => call(() => getFreeBalanceRequest(echoAppId), options),
    }
    this.models = {
      supported: async (options) => call(() => getSupportedModelsRequest(), options),
    }
    this.payments = {
      createPaymentLink: async (request, options) => call(() => createPaymentLinkRequest(request), options),
    }
    this.users = {
      get: async (options) => call(() => getUserRequest(), options),
      registerReferral: async (request, options) => call(() => registerReferralRequest(request), options),
    }
  }
}

function requireApiKey(apiKey: unknown): string {
  if (typeof apiKey !== 'string')
    throw new EchoError({
      code: 'UNKNOWN_ERROR',
      reason: 'misconfigured',
      message: `EchoClient's apiKey must be a string (got ${typeof apiKey})`,
    })
  return apiKey
}

function apiKeyTokens(apiKey: string): TokenProvider {
  return {
    getAccessToken: () => Promise.resolve(apiKey),
    refreshToken: () => Promise.reject(new Error('An API key cannot be refreshed')),
  }
}
