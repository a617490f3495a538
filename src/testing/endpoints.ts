import { DEFAULT_API_URL, DEFAULT_ROUTER_URL, httpUrl, type EchoConfig } from '../config'
import { ECHO_PATHS } from '../echoPaths'

/**
 * The Echo a test stands in for: the parts of an `EchoConfig` that say where it is, and in server
 * mode (`session: 'server'`) where the app's server is (`serverUrl`, on `pageOrigin`).
 */
export type EchoTestConfig = Partial<
  Pick<EchoConfig, 'appId' | 'apiUrl' | 'baseRouterUrl' | 'session' | 'serverUrl'>
> & {
  /** The page's origin, where the app's server answers in server mode. Defaults to the test page's own. */
  pageOrigin?: string | undefined
}

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
  /**
   * msw's path pattern for Google's `models/{model}:generateContent` and the other methods, under any version prefix.
   */
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
export function echoEndpoints({
  apiUrl = DEFAULT_API_URL,
  baseRouterUrl = DEFAULT_ROUTER_URL,
}: EchoTestConfig = {}): EchoEndpoints {
  const apiBase = httpUrl('apiUrl', apiUrl)
  const routerBase = httpUrl('baseRouterUrl', baseRouterUrl)
  const api = (path: string) => `${apiBase}${path}`
  const router = (path: string) => `${routerBase}${path}`
  return {
    authorize: api(ECHO_PATHS.authorize),
    token: api(ECHO_PATHS.token),
    userinfo: api(ECHO_PATHS.userinfo),
    apps: api(ECHO_PATHS.apps),
    app: api(`${ECHO_PATHS.apps}/:id`),
    balance: api(ECHO_PATHS.balance),
    freeBalance: api(ECHO_PATHS.freeBalance),
    supportedModels: api(ECHO_PATHS.supportedModels),
    paymentLink: api(ECHO_PATHS.paymentLink),
    user: api(ECHO_PATHS.user),
    referral: api(ECHO_PATHS.referral),
    chatCompletions: router('/chat/completions'),
    responses: router('/responses'),
    messages: router('/messages'),
    messagesV1: router('/v1/messages'),
    googleModels: router('/*'),
  }
}
