/**
 * What went wrong, as a closed set of codes (SPEC §8):
 * `NETWORK_ERROR` (the request never got an answer), `HTTP_<status>` (a non-OK answer),
 * `UNKNOWN_ERROR` (anything else, an aborted request included).
 */
export type EchoErrorCode = 'NETWORK_ERROR' | 'UNKNOWN_ERROR' | `HTTP_${number}`

/** An {@link EchoError} as plain data: what Redux state and devtools hold. */
export interface EchoErrorData {
  code: EchoErrorCode
  message: string
  statusCode?: number
  /** The path that was called, e.g. `/api/v1/balance`. */
  endpoint?: string
}

/** What `new EchoError(...)` takes; an `undefined` field is the same as a missing one. */
export interface EchoErrorInit {
  code: EchoErrorCode
  message: string
  statusCode?: number | undefined
  endpoint?: string | undefined
  cause?: unknown
  /** What was being done (`fetching balance`); appended to the message as ` while <action>`. */
  action?: string | undefined
}

/**
 * The one error echo-rtk throws for a failed call.
 *
 * @example
 * try { await client.balance.get() } catch (error) {
 *   if (error instanceof EchoError && error.code === 'HTTP_401') signIn()
 * }
 */
export class EchoError extends Error {
  override readonly name = 'EchoError'
  readonly code: EchoErrorCode
  readonly statusCode: number | undefined
  readonly endpoint: string | undefined
  /**
   * What was being done when it failed; already part of `message`. Given no `action`, a message that
   * already ends in ` while <action>` keeps that one, so it is never added twice.
   */
  readonly action: string | undefined

  constructor({ code, message, statusCode, endpoint, cause, action }: EchoErrorInit) {
    super(action === undefined ? message : `${message} while ${action}`, cause === undefined ? undefined : { cause })
    this.code = code
    this.statusCode = statusCode
    this.endpoint = endpoint
    this.action = action ?? trailingAction(message)
  }

  /**
   * Turns anything thrown into an `EchoError`, adding ` while <action>` once: an `EchoError` that
   * already names its action passes through as it is.
   */
  static from(value: unknown, action?: string): EchoError {
    if (value instanceof EchoError) {
      if (value.action !== undefined || action === undefined) return value
      return new EchoError({ ...value.toJSON(), cause: value.cause, action })
    }
    if (isAbortLike(value)) {
      return new EchoError({ code: 'UNKNOWN_ERROR', message: 'Request aborted', cause: value, action })
    }
    const message = value instanceof Error ? value.message : typeof value === 'string' ? value : 'Unknown error'
    return new EchoError({ code: 'UNKNOWN_ERROR', message, cause: value, action })
  }

  /**
   * An `EchoError` again from its plain data (from Redux state, an RTK Query `unwrap()`, a log). A
   * field of the wrong kind is left out, and a code outside the catalogue reads as `UNKNOWN_ERROR`.
   */
  static fromJSON(data: EchoErrorData): EchoError {
    if (typeof data !== 'object' || data === null || typeof data.message !== 'string') return EchoError.from(data)
    const { code, message, statusCode, endpoint } = data as { [field in keyof EchoErrorData]: unknown } & { message: string }
    return new EchoError({
      code: typeof code === 'string' && ERROR_CODE.test(code) ? (code as EchoErrorCode) : 'UNKNOWN_ERROR',
      message,
      statusCode: typeof statusCode === 'number' ? statusCode : undefined,
      endpoint: typeof endpoint === 'string' ? endpoint : undefined,
    })
  }

  /** The `NETWORK_ERROR` for a request that got no answer at all (`fetch` rejected). */
  static network(cause: unknown, endpoint?: string, action?: string): EchoError {
    return new EchoError({ code: 'NETWORK_ERROR', message: 'Network error', cause, endpoint, action })
  }

  /** The `HTTP_<status>` error for a non-OK answer: its message is the body text. */
  static async fromResponse(response: Response, endpoint?: string, action?: string): Promise<EchoError> {
    const body = await response.text().catch(() => '')
    const message = body !== '' ? body : `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`
    return new EchoError({ code: `HTTP_${response.status}`, message, statusCode: response.status, endpoint, action })
  }

  /** Plain data for Redux state, logs and `JSON.stringify`. */
  toJSON(): EchoErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.statusCode === undefined ? {} : { statusCode: this.statusCode }),
      ...(this.endpoint === undefined ? {} : { endpoint: this.endpoint }),
    }
  }
}

/**
 * True when the router refused a call for lack of credits (402): an `EchoError`, its plain data
 * from Redux state, or another client's error that carries the status as `status` (`openai`'s
 * `APIError`, `@google/genai`'s `ApiError`, the AI SDK's `APICallError` as `statusCode`).
 */
export function isInsufficientFunds(error: unknown): boolean {
  return statusOf(error) === 402
}

/** True when the call failed because its `AbortSignal` fired: not an auth or network failure. */
export function isAbortError(error: unknown): boolean {
  return isAbortLike(error) || (error instanceof EchoError && isAbortLike(error.cause))
}

/**
 * The failure of a call whose `signal` fired, as an abort whatever reason the signal was given
 * (`controller.abort('left the page')`, a `TimeoutError`): never a network failure.
 * @internal
 */
export function abortFailure(signal: AbortSignal, action?: string): EchoError {
  const reason: unknown = signal.reason
  if (isAbortLike(reason)) return EchoError.from(reason, action)
  const abort = new Error('Request aborted', { cause: reason })
  abort.name = 'AbortError'
  return EchoError.from(abort, action)
}

function isAbortLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'AbortError'
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { statusCode, status } = error as { statusCode?: unknown; status?: unknown }
  if (typeof statusCode === 'number') return statusCode
  return typeof status === 'number' ? status : undefined
}

const ERROR_CODE = /^(NETWORK_ERROR|UNKNOWN_ERROR|HTTP_\d{3})$/
const WHILE = ' while '

/** The action a message already names at its end (` while <action>`), if any. */
function trailingAction(message: string): string | undefined {
  const at = message.lastIndexOf(WHILE)
  return at === -1 || at + WHILE.length === message.length ? undefined : message.slice(at + WHILE.length)
}
