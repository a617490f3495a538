/** Echo's own API and OAuth host. */
export const DEFAULT_API_URL = 'https://echo.merit.systems'
/** Echo's model router, where language, image, speech and embedding calls are billed. */
export const DEFAULT_ROUTER_URL = 'https://echo.router.merit.systems'
/** The OAuth scope Echo grants: model calls, plus a refresh token for silent renew. */
export const DEFAULT_SCOPE = 'llm:invoke offline_access'
/** A token refresh that has not answered in 10 s could not reach the server (`refreshTimeoutMs` changes it). */
export const REFRESH_TIMEOUT_MS = 10_000

/**
 * What an app tells echo-rtk about itself.
 *
 * @example
 * const config: EchoConfig = { appId: '4f3c…' }
 */
export interface EchoConfig {
  /** The id of your app in Echo (its OAuth client id). Required. */
  appId: string
  /** Echo's API and OAuth host. Defaults to {@link DEFAULT_API_URL}. */
  apiUrl?: string
  /** Where Echo sends the user back after sign-in. Defaults to the page's origin. */
  redirectUri?: string
  /** The OAuth scope to ask for. Defaults to {@link DEFAULT_SCOPE}. */
  scope?: string
  /** The model router host. Defaults to {@link DEFAULT_ROUTER_URL}. */
  baseRouterUrl?: string
  /**
   * Your own servers that may receive the user's token: `'self'` for the page's
   * origin, or absolute http(s) URLs (their origin counts). The session's fetch (`useEchoFetch()`)
   * sends the token there with the session's rules (one shared refresh, `isInsufficientFunds`, the
   * balance following), and your server checks it with `echo-rtk/server`. None by default: the
   * token goes only to `apiUrl` and `baseRouterUrl`.
   *
   * @example
   * serverOrigins: ['self'] // a Next.js app's own /api routes
   */
  serverOrigins?: readonly string[]
  /**
   * How `signIn()`, `<EchoSignIn>` and `<EchoAccount>` sign in: `'redirect'` (the default) leaves
   * the page for Echo and comes back; `'popup'` signs in in a window of its own and keeps the page
   * (what the user typed, the chat on screen), falling back to the redirect where the browser
   * blocks the window. Each call can choose otherwise (`signIn({ popup })`).
   */
  signIn?: SignInMode
  /**
   * A billed call made while nobody is signed in (the router, `useEchoFetch()`, a model provider)
   * opens the sign-in window, from the click that made the call, and is sent once the user has
   * signed in; closed or blocked, the call rejects with the window's error. Off by default: such a
   * call rejects with `Not authenticated`.
   */
  signInOnDemand?: boolean
  /**
   * The most this app may spend of a user's credits in a day (their local day), in US dollars, until
   * the user chooses their own limit in `<EchoAccount>`: billed calls past it are refused before
   * they are sent. A guard against a runaway loop or a forgotten long chat, not a wall against a
   * hostile app (Echo itself enforces no per-app cap). None by default.
   */
  dailyLimit?: number | null
  /**
   * The most one billed call may cost, in US dollars: each model call is priced from Echo's prices before it is
   * sent, then refused (reason `'call-cost-limit'`) when its input alone could cost more, or sent with its output
   * limit lowered so that its answer cannot. A call lowers it for itself with the `X-Echo-Max-Cost` header. None by
   * default (docs/api.md, "The price ceiling").
   */
  maxCallCost?: number | null
  /** Below this much credit, in US dollars, the balance is low (`useEcho().isLowBalance`). Default 1. */
  lowBalanceAt?: number
  /**
   * Where the user's tokens live. `'browser'` (the default): in this page's storage, as Echo's React
   * SDK keeps them. `'server'`: on the app's own server (`echo-rtk/server`'s `echo.handler`, mounted
   * at `serverUrl`), in an encrypted HttpOnly cookie: the page holds no token at all, so no script in
   * it can copy one (docs/security.md, "Server mode").
   */
  session?: 'browser' | 'server'
  /**
   * Where the app's server mounts echo-rtk's routes in server mode: a path of this page's origin
   * (or an absolute URL on it). Defaults to `/api/echo`.
   */
  serverUrl?: string
}

/** How sign-in goes: leaving the page for Echo, or in a window of its own. */
export type SignInMode = 'redirect' | 'popup'

/** Where the user's tokens live: in the page (`'browser'`), or on the app's own server (`'server'`). */
export type SessionMode = 'browser' | 'server'

/** Where the app's server mounts echo-rtk's routes unless the app says otherwise. */
export const DEFAULT_SERVER_URL = '/api/echo'

/** An {@link EchoConfig} with every default filled in and every URL checked. */
export interface ResolvedEchoConfig {
  appId: string
  /** No trailing slash. */
  apiUrl: string
  redirectUri: string
  scope: string
  /** No trailing slash. In server mode, the app's server's router route (`<serverUrl>/router`). */
  baseRouterUrl: string
  /** The origins `serverOrigins` names (`'self'` made the page's), each once; empty when none. */
  serverOrigins: string[]
  signIn: SignInMode
  signInOnDemand: boolean
  /** `null` when the app sets no daily limit. */
  dailyLimit: number | null
  /** `null` when the app sets no ceiling per call. */
  maxCallCost: number | null
  lowBalanceAt: number
  session: SessionMode
  /** Where the app's server's routes are, no trailing slash: absolute in server mode (only it uses them). */
  serverUrl: string
}

/**
 * Where `resolveConfig` finds the page origin; a parameter so tests and servers can pass their own.
 *
 * @inline
 */
export interface ConfigEnvironment {
  /** The page origin used as the default `redirectUri`; `globalThis.location?.origin` when left out. */
  origin?: string | undefined
}

/**
 * Fills in the defaults and refuses a config that cannot work, naming the field and the value given.
 *
 * @example
 * resolveConfig({ appId: '60601628-cdb7-481e-8f7e-921981220348' }).apiUrl // 'https://echo.merit.systems'
 */
export function resolveConfig(
  config: EchoConfig,
  { origin = pageOrigin() }: ConfigEnvironment = {},
): ResolvedEchoConfig {
  if (config === null || typeof config !== 'object') {
    throw new TypeError(`EchoConfig must be an object with at least an appId, got ${describe(config)}`)
  }
  for (const [echoName, ours] of Object.entries(ECHO_SDK_NAMES)) {
    if (echoName in config) {
      throw new TypeError(
        `EchoConfig.${echoName} is the name Echo's React SDK uses: echo-rtk calls it ${ours} (left as it is, it ` +
          `would be ignored and Echo's own host used)`,
      )
    }
  }
  const appIdProblem = describeAppIdProblem(config.appId, 'EchoConfig.appId')
  if (appIdProblem !== null) throw new TypeError(appIdProblem)
  const { appId } = config
  const redirectUri = config.redirectUri ?? origin
  if (redirectUri === undefined) {
    throw new TypeError(
      'EchoConfig.redirectUri is required outside a browser: there is no window.location to default it to (got ' +
        'undefined)',
    )
  }
  const session = oneOf('session', config.session ?? 'browser', ['browser', 'server'] as const)
  const serverUrl = serverUrlOf(config.serverUrl ?? DEFAULT_SERVER_URL, origin, session)
  return {
    appId,
    apiUrl: httpUrl('apiUrl', config.apiUrl ?? DEFAULT_API_URL),
    redirectUri: httpUrl('redirectUri', redirectUri, { keepTrailingSlash: true }),
    scope: config.scope ?? DEFAULT_SCOPE,
    // In server mode the page's router is the app's server, which sends each call on to Echo's.
    baseRouterUrl:
      session === 'server'
        ? `${serverUrl}/router`
        : httpUrl('baseRouterUrl', config.baseRouterUrl ?? DEFAULT_ROUTER_URL),
    serverOrigins: serverOriginsOf(config.serverOrigins, origin),
    signIn: oneOf('signIn', config.signIn ?? 'redirect', ['redirect', 'popup'] as const),
    signInOnDemand: oneOf('signInOnDemand', config.signInOnDemand ?? false, [false, true] as const),
    dailyLimit: config.dailyLimit == null ? null : usdAmount('dailyLimit', config.dailyLimit, { min: 0.01 }),
    maxCallCost: ceilingOf('EchoConfig.maxCallCost', config.maxCallCost),
    lowBalanceAt: usdAmount('lowBalanceAt', config.lowBalanceAt ?? DEFAULT_LOW_BALANCE_AT, { min: 0 }),
    session,
    serverUrl,
  }
}

/**
 * `serverUrl` made absolute on the page's origin, without a trailing slash. In server mode it must
 * be on the page's own origin: the session cookie goes only there.
 */
function serverUrlOf(serverUrl: unknown, pageOrigin: string | undefined, session: SessionMode): string {
  if (typeof serverUrl !== 'string' || serverUrl === '')
    throw new TypeError(`EchoConfig.serverUrl must be a path such as '/api/echo', got ${describe(serverUrl)}`)
  const isPath = serverUrl.startsWith('/') && !serverUrl.startsWith('//')
  if (isPath && pageOrigin === undefined) {
    if (session === 'browser') return serverUrl.replace(/\/+$/, '')
    throw new TypeError(
      `EchoConfig.serverUrl ${JSON.stringify(serverUrl)} is a path, and there is no page here to read it against: ` +
        "give the absolute URL of the app's server",
    )
  }
  const absolute = isPath ? `${pageOrigin}${serverUrl}` : httpUrl('serverUrl', serverUrl)
  if (session === 'server' && pageOrigin !== undefined && new URL(absolute).origin !== pageOrigin)
    throw new TypeError(
      `EchoConfig.serverUrl must be on this page's origin (${pageOrigin}) in server mode, got ${JSON.stringify(serverUrl)}: ` +
        'the session cookie is sent only there',
    )
  return absolute.replace(/\/+$/, '')
}

/** The shape of an Echo app id: a UUID, as Echo makes them (its own SDKs refuse anything else). */
const APP_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * What is wrong with `appId` as an Echo app id, as a sentence naming `field`, or `null` when it is
 * one. Nothing is trimmed: an id pasted with a space or a line break is refused, not quietly
 * mended, since Echo would refuse it at sign-in on a page of its own.
 * @internal
 */
export function describeAppIdProblem(appId: unknown, field: string): string | null {
  if (typeof appId !== 'string' || appId.trim() === '')
    return `${field} is required: pass your app's id from the Echo dashboard (got ${describe(appId)})`
  if (appId.trim() !== appId)
    return (
      `${field} has spaces or a line break around it (got ${JSON.stringify(appId)}): copy your app's id ` +
      `from the Echo dashboard without them`
    )
  if (!APP_ID.test(appId))
    return (
      `${field} must be your app's id from the Echo dashboard, a UUID such as ` +
      `60601628-cdb7-481e-8f7e-921981220348 (got ${JSON.stringify(appId)})`
    )
  return null
}

/** `value` if it is one of `allowed`; a TypeError naming the field and the choices otherwise. */
/** Below this much credit (US dollars) the balance is low, unless the app says otherwise. */
export const DEFAULT_LOW_BALANCE_AT = 1

/** `value` as US dollars of at least `min`, or a TypeError naming `field`. */
function usdAmount(field: string, value: unknown, { min }: { min: number }): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= min) return value
  throw new TypeError(`EchoConfig.${field} must be an amount in US dollars of at least ${min}, got ${describe(value)}`)
}

/** What is wrong with `value` as a ceiling in US dollars (`null` or absent: none), or `null` if nothing. @internal */
export function ceilingProblem(what: string, value: unknown): string | null {
  if (value == null || (typeof value === 'number' && Number.isFinite(value) && value > 0)) return null
  return `${what} must be an amount in US dollars above 0 (such as 0.05), or null for none; got ${describe(value)}`
}

function ceilingOf(what: string, value: unknown): number | null {
  const problem = ceilingProblem(what, value)
  if (problem !== null) throw new TypeError(problem)
  return (value as number | null | undefined) ?? null
}

function oneOf<T>(field: string, value: unknown, allowed: readonly T[]): T {
  if (allowed.includes(value as T)) return value as T
  const choices = allowed.map((choice) => JSON.stringify(choice)).join(' or ')
  throw new TypeError(`EchoConfig.${field} must be ${choices}, got ${describe(value)}`)
}

/** The origins of `serverOrigins`, `'self'` as the page's origin; a clear TypeError for anything else. */
function serverOriginsOf(listed: unknown, pageOrigin: string | undefined): string[] {
  if (listed === undefined) return []
  if (!Array.isArray(listed))
    throw new TypeError(`EchoConfig.serverOrigins must be a list such as ['self'], got ${describe(listed)}`)
  const origins = listed.map((entry: unknown) => {
    if (entry !== 'self') return new URL(httpUrl('serverOrigins', entry)).origin
    if (pageOrigin === undefined)
      throw new TypeError(
        "EchoConfig.serverOrigins 'self' means the page's origin, and there is no page here: list the server's " +
          'URL instead',
      )
    return pageOrigin
  })
  return [...new Set(origins)]
}

/**
 * Config names of Echo's React SDK that echo-rtk spells differently: silently ignored, they would send sign-in to
 * Echo's own host.
 */
const ECHO_SDK_NAMES: Readonly<Record<string, keyof EchoConfig>> = { baseEchoUrl: 'apiUrl' }

const CONFIG_KEYS: readonly (keyof EchoConfig)[] = [
  'appId',
  'apiUrl',
  'redirectUri',
  'scope',
  'baseRouterUrl',
  'serverOrigins',
  'signIn',
  'signInOnDemand',
  'dailyLimit',
  'maxCallCost',
  'lowBalanceAt',
  'session',
  'serverUrl',
]

/**
 * What a config holds that echo-rtk does not read, each as a sentence naming the key and, when it
 * is a misspelling of one (`apiURL`, `redirectUrl`), the name meant: for a development warning.
 * @internal
 */
export function unknownConfigKeys(config: EchoConfig): string[] {
  const simplified = (key: string) => key.toLowerCase().replace(/url$|uri$/, 'url')
  return Object.keys(config)
    .filter((key) => !(CONFIG_KEYS as readonly string[]).includes(key))
    .map((key) => {
      const meant = CONFIG_KEYS.find((known) => simplified(known) === simplified(key))
      const hint = meant === undefined ? ` (it reads ${CONFIG_KEYS.join(', ')})` : `: did you mean ${meant}?`
      return `echo-rtk: EchoConfig.${key} is not a setting of echo-rtk and is ignored${hint}`
    })
}

/**
 * Checks that `value` is an absolute http(s) URL and returns it, without a trailing slash unless asked.
 * @internal
 */
export function httpUrl(field: string, value: unknown, { keepTrailingSlash = false } = {}): string {
  const parsed = typeof value === 'string' ? parseUrl(value) : null
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new TypeError(`EchoConfig.${field} must be an absolute http(s) URL, got ${describe(value)}`)
  }
  const text = value as string
  return keepTrailingSlash ? text : text.replace(/\/+$/, '')
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}

/** The page's origin, or `undefined` outside a browser. @internal */
export function pageOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: string } }).location
  return location?.origin
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

/**
 * What makes two configs the same session's: every field, as given (a provider compares them at
 * every render, so this reads no URL).
 * @internal
 */
export function configKey(config: EchoConfig): string {
  return JSON.stringify(CONFIG_KEYS.map((key) => config[key] ?? null))
}
