import { EchoError, isAbortError } from '../errors'
import { DEFAULT_API_URL, pageOrigin } from '../config'
import { ECHO_PATHS } from '../echoPaths'
import type { AuthorizedSend } from './authorizedFetch'
import { callFailure } from './callFailure'
import { readPaymentLinkAnswer } from './paymentLinks'
import { echoSdkModelList, fromEchoRoute } from './supportedModels'
import type { AppList, EchoApp, PaymentLinkRequest, ReferralRequest } from './wireTypes'

/** One JSON call to Echo's API. */
export interface JsonRequest {
  method: 'GET' | 'POST'
  /** The path under the API host, e.g. `/api/v1/balance`; kept as the error's `endpoint`. */
  path: string
  body?: unknown
  /** What is being done, for the error message: `fetching balance`. */
  action: string
  signal?: AbortSignal | undefined
  /**
   * Checks the parsed answer and returns it; throws, saying what is missing, when it is not the
   * shape the call promises (so a caller never gets `undefined` where it was promised a value).
   */
  read?: (answer: unknown) => unknown
  /**
   * The answer when Echo has no such route: a 404, or, in a browser, an answer the page may not
   * read (Echo's 404 carries no CORS headers, so `fetch` rejects as it would offline; a second
   * request in `no-cors` mode, which carries nothing, tells the two apart). A browser tab asks an
   * API host once: a route found missing is remembered for the tab (`sessionStorage`), and Echo's
   * own API (`DEFAULT_API_URL`) is never asked, so no request known to fail leaves (each would
   * print a CORS error in the console).
   */
  whenRouteMissing?: () => Promise<unknown>
}

/**
 * Sends a JSON call through the authorized fetch and returns the parsed answer; every failure
 * becomes an `EchoError` whose message ends in ` while <action>`.
 * @internal
 */
export async function requestJson<T>(sendAuthorized: AuthorizedSend, apiUrl: string, request: JsonRequest): Promise<T> {
  const { method, path, body, action, signal, read, whenRouteMissing } = request
  const url = `${apiUrl}${path}`
  if (whenRouteMissing !== undefined && (apiUrl === DEFAULT_API_URL || routeMissing.isKnown(url)))
    return (await whenRouteMissing()) as T
  let outcome
  try {
    outcome = await sendAuthorized(url, {
      method,
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    })
  } catch (error) {
    const failure = callFailure(error, request)
    if (whenRouteMissing !== undefined && failure.code === 'NETWORK_ERROR' && (await answersUnreadably(url, signal))) {
      routeMissing.remember(url)
      return (await whenRouteMissing()) as T
    }
    throw failure
  }

  const { response, refreshError } = outcome
  if (response.status === 404 && whenRouteMissing !== undefined) {
    void response.body?.cancel().catch(() => undefined)
    routeMissing.remember(url)
    return (await whenRouteMissing()) as T
  }
  if (!response.ok) throw await EchoError.fromResponse(response, { endpoint: path, action, refreshError })
  let answer: unknown
  try {
    answer = await response.json()
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) throw callFailure(error, request)
    throw new EchoError({
      code: 'UNKNOWN_ERROR',
      reason: 'bad-answer',
      message: 'Echo answered with a body that is not JSON',
      endpoint: path,
      cause: error,
      action,
    })
  }
  if (read === undefined) return answer as T
  try {
    return read(answer) as T
  } catch (error) {
    throw new EchoError({
      code: 'UNKNOWN_ERROR',
      reason: 'bad-answer',
      message: error instanceof Error ? error.message : String(error),
      endpoint: path,
      action,
    })
  }
}

/**
 * Whether `url` answers, though the page could not read the answer: a `no-cors` request (no token,
 * no cookies) resolves, opaque, whenever the server answered at all, and rejects only when nothing
 * answered (offline, the host down).
 */
/** What a browser tab knows of routes an API host lacks: kept in its `sessionStorage`, where it has one. */
const routeMissing = {
  isKnown: (url: string): boolean => tabStorage()?.getItem(routeMissingKey(url)) != null,
  remember: (url: string): void => {
    try {
      tabStorage()?.setItem(routeMissingKey(url), '1')
    } catch {
      // Storage full or refused: the route is asked for again, as before.
    }
  },
}

const routeMissingKey = (url: string) => `echo-rtk:route-missing:${url}`

function tabStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage ?? undefined
  } catch {
    // A sandboxed frame refuses access to its storage.
    return undefined
  }
}

async function answersUnreadably(url: string, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await globalThis.fetch(url, { mode: 'no-cors', credentials: 'omit', ...(signal === undefined ? {} : { signal }) })
    return true
  } catch {
    return false
  }
}

/** The payment description when the caller gives none. */
export const DEFAULT_PAYMENT_DESCRIPTION = 'Echo Credits'

/** The list answer as the live server sends it (`{ items, page, ... }`); older answers and ours: `{ apps }`. */
interface PagedApps {
  items: EchoApp[]
}

// Echo's eight API calls as request descriptions, shared by `EchoClient` and the RTK Query API.
// Each checks its input and throws before anything is sent. One function each, so that a bundler
// keeps only the ones an app calls.

/** @internal */
export const listAppsRequest = (): JsonRequest => ({
  method: 'GET',
  path: ECHO_PATHS.apps,
  action: 'listing apps',
  read: toAppList,
})

/** @internal */
export const getAppRequest = (id: string): JsonRequest => ({
  method: 'GET',
  path: `${ECHO_PATHS.apps}/${pathSegment('id', id, 'apps.get')}`,
  action: 'fetching app',
})

/** @internal */
export const getBalanceRequest = (): JsonRequest => ({
  method: 'GET',
  path: ECHO_PATHS.balance,
  action: 'fetching balance',
})

/** @internal */
export const getFreeBalanceRequest = (echoAppId: string): JsonRequest => ({
  method: 'POST',
  path: ECHO_PATHS.freeBalance,
  body: { echoAppId: requireText('echoAppId', echoAppId, 'balance.getFree') },
  action: 'fetching free-tier balance',
})

/** @internal */
export const getSupportedModelsRequest = (): JsonRequest => ({
  method: 'GET',
  path: ECHO_PATHS.supportedModels,
  action: 'fetching supported models',
  read: fromEchoRoute,
  whenRouteMissing: echoSdkModelList,
})

/** @internal */
export const createPaymentLinkRequest = (request: PaymentLinkRequest): JsonRequest => ({
  method: 'POST',
  path: ECHO_PATHS.paymentLink,
  body: paymentLinkBody(request),
  action: 'creating payment link',
  read: readPaymentLinkAnswer,
})

/** @internal */
export const getUserRequest = (): JsonRequest => ({ method: 'GET', path: ECHO_PATHS.user, action: 'fetching user' })

/** @internal */
export const registerReferralRequest = (request: ReferralRequest): JsonRequest => ({
  method: 'POST',
  path: ECHO_PATHS.referral,
  body: {
    echoAppId: requireText('echoAppId', request?.echoAppId, 'users.registerReferral'),
    code: requireText('code', request?.code, 'users.registerReferral'),
  },
  action: 'registering referral',
})

/** `{ apps }` from either answer the server may give (`{ apps }` or `{ items }`); refuses any other. */
function toAppList(answer: unknown): AppList {
  const { apps, items } = (answer ?? {}) as Partial<AppList & PagedApps>
  const list = apps ?? items
  if (!Array.isArray(list)) throw new Error('Echo answered without a list of apps (apps or items)')
  return { apps: list }
}

/**
 * The body of a payment-link request with its defaults; refuses an amount that cannot be charged.
 * @internal
 */
function paymentLinkBody(request: PaymentLinkRequest): PaymentLinkRequest {
  const {
    amount,
    description = DEFAULT_PAYMENT_DESCRIPTION,
    successUrl = pageOrigin(),
  } = request ?? ({} as Partial<PaymentLinkRequest>)
  if (!isChargeableAmount(amount)) {
    throw badArgument(`The payment amount must be a finite number of US dollars, at least 1 (got ${String(amount)})`)
  }
  return successUrl === undefined ? { amount, description } : { amount, description, successUrl }
}

/**
 * An id as one path segment: encoded, and never `.` or `..`, which a URL would resolve to
 * another path (`/api/v1/apps/..` is `/api/v1/`) with the user's token on it.
 */
function pathSegment(field: string, value: unknown, call: string): string {
  const text = requireText(field, value, call)
  if (text === '.' || text === '..') throw badArgument(`${call} needs ${field} as an id, not ${JSON.stringify(text)}`)
  return encodeURIComponent(text)
}

/** A number of US dollars a payment link can charge: finite and at least 1. @internal */
export function isChargeableAmount(amount: unknown): amount is number {
  return typeof amount === 'number' && Number.isFinite(amount) && amount >= 1
}

function requireText(field: string, value: unknown, call: string): string {
  if (typeof value !== 'string' || value === '') {
    throw badArgument(`${call} needs ${field} as a non-empty string (got ${JSON.stringify(value) ?? String(value)})`)
  }
  return value
}

function badArgument(message: string): EchoError {
  return new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-argument', message })
}
