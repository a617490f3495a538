import { DEFAULT_API_URL, DEFAULT_ROUTER_URL, httpUrl, type EchoConfig } from '../config'

/** The Echo a test stands in for: the parts of an `EchoConfig` that say where it is. */
export type EchoTestConfig = Partial<Pick<EchoConfig, 'appId' | 'apiUrl' | 'baseRouterUrl'>>

/** Every URL `echoHandlers` answers, by name: for your own `http.*` overrides and assertions. */
export interface EchoEndpoints {
  authorize: string
  token: string
  userinfo: string
  apps: string
  /** msw's path pattern, with `:id`. */
  app: string
  balance: string
  freeBalance: string
  supportedModels: string
  paymentLink: string
  user: string
  referral: string
  chatCompletions: string
  responses: string
  messages: string
  /** Also served with the `/v1` prefix `@anthropic-ai/sdk` adds. */
  messagesV1: string
  /** msw's path pattern for Google's `models/{model}:generateContent` and the other methods, under any version prefix. */
  googleModels: string
}

/** The names `echoHandlers({ failures })` takes: every endpoint but the OAuth pages. */
export type EchoEndpointName = Exclude<keyof EchoEndpoints, 'authorize' | 'messagesV1'>

/**
 * The URLs of Echo's endpoints for a config (`apiUrl` and `baseRouterUrl`, Echo's own when left out).
 *
 * @example
 * server.use(http.get(echoEndpoints(config).balance, () => HttpResponse.json({ message: 'Down' }, { status: 503 })))
 */
export function echoEndpoints({ apiUrl = DEFAULT_API_URL, baseRouterUrl = DEFAULT_ROUTER_URL }: EchoTestConfig = {}): EchoEndpoints {
  const apiBase = httpUrl('apiUrl', apiUrl)
  const routerBase = httpUrl('baseRouterUrl', baseRouterUrl)
  const api = (path: string) => `${apiBase}${path}`
  const router = (path: string) => `${routerBase}${path}`
  return {
    authorize: api('/api/oauth/authorize'),
    token: api('/api/oauth/token'),
    userinfo: api('/api/oauth/userinfo'),
    apps: api('/api/v1/apps'),
    app: api('/api/v1/apps/:id'),
    balance: api('/api/v1/balance'),
    freeBalance: api('/api/v1/balance/free'),
    supportedModels: api('/api/v1/supported-models'),
    paymentLink: api('/api/v1/stripe/payment-link'),
    user: api('/api/v1/user'),
    referral: api('/api/v1/user/referral'),
    chatCompletions: router('/chat/completions'),
    responses: router('/responses'),
    messages: router('/messages'),
    messagesV1: router('/v1/messages'),
    googleModels: router('/*'),
  }
}
