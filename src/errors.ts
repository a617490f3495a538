import {
  isEchoErrorReason,
  reasonOfCode,
  SAID_TO_PEOPLE,
  type EchoErrorCode,
  type EchoErrorReason,
} from './errorReasons'

export type { EchoErrorCode } from './errorReasons'

/** An {@link EchoError} as plain data: what Redux state and devtools hold. */
export interface EchoErrorData {
  code: EchoErrorCode
  reason: EchoErrorReason
  /** The whole message, ` while <action>` included. */
  message: string
  statusCode?: number
  /** The path that was called, e.g. `/api/v1/balance`. */
  endpoint?: string
  /** What was being done (`fetching balance`). */
  action?: string
  /**
   * The sentence to show a person, when it differs from `message`: Echo's own words from an
   * answer's JSON body (`{"message": "..."}`), with ` while <action>`.
   */
  userMessage?: string
}

/**
 * What `new EchoError(...)` takes; an `undefined` field is the same as a missing one.
 *
 * @inline
 */
export interface EchoErrorInit {
  code: EchoErrorCode
  /**
   * Defaults to what the code says: `HTTP_401` `unauthorized`, `HTTP_402` `insufficient-funds`, another `HTTP_`
   * `http`, `NETWORK_ERROR` `network`, `UNKNOWN_ERROR` `unknown`.
   */
  reason?: EchoErrorReason | undefined
  /** What went wrong; ` while <action>` is added to it. */
  message: string
  statusCode?: number | undefined
  endpoint?: string | undefined
  cause?: unknown
  /** What was being done (`fetching balance`); appended to the message as ` while <action>`. */
  action?: string | undefined
  /** The sentence for a person, when `message` is not one (a JSON body); ` while <action>` is added to it too. */
  userMessage?: string | undefined
}

/**
 * Where a non-OK answer came from, for {@link EchoError.fromResponse}.
 *
 * @inline
 */
export interface FailedAnswer {
  /** The path that was called, kept as the error's `endpoint`. */
  endpoint?: string | undefined
  action?: string | undefined
  /** Why the refresh that should have cured a 401 failed: named in the message, kept as the cause. */
  refreshError?: Error | undefined
  /** The message for this answer, when the caller knows better than the body text (the router's 402 and 422). */
  describe?: ((status: number, body: string) => string | undefined) | undefined
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
  readonly reason: EchoErrorReason
  readonly statusCode: number | undefined
  readonly endpoint: string | undefined
  /** What was being done when it failed (`fetching balance`); the message ends in ` while <action>`. */
  readonly action: string | undefined
  /**
   * What to show a person. For each reason a user can meet (signed out, the session ended, out of
   * credits, the daily limit, offline, Echo out of reach, the sign-in window closed or blocked), a
   * sentence for people, e.g. `You are out of credits. Add credits to keep going.` Otherwise Echo's
   * own words when its answer had them (JSON's `message` or `error`, a page's text), or `message`,
   * ` while <action>` included. `message` keeps the body text itself.
   */
  readonly userMessage: string
  /** The message without ` while <action>`. */
  readonly #what: string
  /** The sentence for a person without ` while <action>`, when it is not the message. */
  readonly #told: string | undefined

  constructor({ code, reason, message, statusCode, endpoint, cause, action, userMessage }: EchoErrorInit) {
    super(withAction(message, action), cause === undefined ? undefined : { cause })
    this.code = code
    this.reason = reason ?? reasonOfCode(code)
    this.statusCode = statusCode
    this.endpoint = endpoint
    this.action = action
    this.#what = message
    this.#told = userMessage === message ? undefined : userMessage
    this.userMessage = SAID_TO_PEOPLE[this.reason] ?? withAction(userMessage ?? message, action)
  }

  /**
   * Turns anything thrown into an `EchoError`, adding ` while <action>` once: an `EchoError` that
   * already names its action passes through as it is.
   */
  static from(value: unknown, action?: string): EchoError {
    if (value instanceof EchoError) {
      if (value.action !== undefined || action === undefined) return value
      return new EchoError({
        code: value.code,
        reason: value.reason,
        message: value.#what,
        userMessage: value.#told,
        statusCode: value.statusCode,
        endpoint: value.endpoint,
        cause: value.cause,
        action,
      })
    }
    if (isAbortLike(value)) {
      return new EchoError({
        code: 'UNKNOWN_ERROR',
        reason: 'aborted',
        message: 'Request aborted',
        cause: value,
        action,
      })
    }
    const message = value instanceof Error ? value.message : typeof value === 'string' ? value : 'Unknown error'
    return new EchoError({ code: 'UNKNOWN_ERROR', message, cause: value, action })
  }

  /**
   * An `EchoError` again from its plain data (from Redux state, an RTK Query `unwrap()`, a log). A
   * field of the wrong kind is left out; a code outside the catalogue reads as `UNKNOWN_ERROR`, and
   * a missing or unknown reason as the code's.
   */
  static fromJSON(data: EchoErrorData): EchoError {
    if (typeof data !== 'object' || data === null || typeof data.message !== 'string') return EchoError.from(data)
    const { code, reason, message, statusCode, endpoint, action, userMessage } = data as {
      [field in keyof EchoErrorData]: unknown
    } & { message: string }
    const knownCode = typeof code === 'string' && ERROR_CODE.test(code) ? (code as EchoErrorCode) : 'UNKNOWN_ERROR'
    const suffix = typeof action === 'string' ? `${WHILE}${action}` : undefined
    const named = suffix !== undefined && message.endsWith(suffix)
    const told =
      typeof userMessage === 'string' && named && userMessage.endsWith(suffix)
        ? userMessage.slice(0, -suffix.length)
        : undefined
    return new EchoError({
      code: knownCode,
      reason: isEchoErrorReason(reason) ? reason : undefined,
      message: named ? message.slice(0, -suffix.length) : message,
      userMessage: told ?? (typeof userMessage === 'string' && !named ? userMessage : undefined),
      statusCode: typeof statusCode === 'number' ? statusCode : undefined,
      endpoint: typeof endpoint === 'string' ? endpoint : undefined,
      action: named ? (action as string) : undefined,
    })
  }

  /** The `NETWORK_ERROR` for a request that got no answer at all (`fetch` rejected). */
  static network(cause: unknown, endpoint?: string, action?: string): EchoError {
    return new EchoError({ code: 'NETWORK_ERROR', message: 'Network error', cause, endpoint, action })
  }

  /**
   * The `HTTP_<status>` error for a non-OK answer, the one way any answer becomes an error: its
   * message is the body text (or what `describe` makes of it), then why a refresh could not cure a
   * 401, then ` while <action>`; its `userMessage`, the sentence in the body (Echo's `{"message"}`,
   * a router's `{"error"}`, a page's text) when there is one.
   */
  static async fromResponse(
    response: Response,
    { endpoint, action, refreshError, describe }: FailedAnswer = {},
  ): Promise<EchoError> {
    const { status, statusText } = response
    const body = await response.text().catch(() => '')
    const described = describe?.(status, body)
    const told = described ?? (body !== '' ? body : `HTTP ${status}${statusText ? ` ${statusText}` : ''}`)
    const message = refreshError === undefined ? told : `${told} (token refresh failed: ${refreshError.message})`
    const userMessage = described ?? sentenceOf(body) ?? message
    return new EchoError({
      code: `HTTP_${status}`,
      message,
      userMessage,
      statusCode: status,
      endpoint,
      action,
      cause: refreshError,
    })
  }

  /** Plain data for Redux state, logs and `JSON.stringify`. */
  toJSON(): EchoErrorData {
    return {
      code: this.code,
      reason: this.reason,
      message: this.message,
      ...(this.statusCode === undefined ? {} : { statusCode: this.statusCode }),
      ...(this.endpoint === undefined ? {} : { endpoint: this.endpoint }),
      ...(this.action === undefined ? {} : { action: this.action }),
      ...(this.userMessage === this.message ? {} : { userMessage: this.userMessage }),
    }
  }
}

/**
 * The sentence to show a person for any failure: an `EchoError`'s `userMessage` (or its plain data's,
 * from Redux state); a 402 from another client (openai, the AI SDK) as out of credits; else the
 * error's message.
 *
 * @example
 * streamText({ model, messages }).toUIMessageStream({ onError: userMessageOf })
 */
export function userMessageOf(error: unknown): string {
  if (error instanceof EchoError) return error.userMessage
  if (isInsufficientFunds(error)) return SAID_TO_PEOPLE['insufficient-funds']!
  const { message, userMessage } = (typeof error === 'object' && error !== null ? error : {}) as Partial<
    Record<'message' | 'userMessage', unknown>
  >
  if (typeof userMessage === 'string') return userMessage
  return typeof message === 'string' ? message : String(error)
}

function withAction(message: string, action: string | undefined): string {
  return action === undefined ? message : `${message}${WHILE}${action}`
}

/** The longest answer text taken as a sentence: anything longer is a page or a dump, not words for a person. */
const LONGEST_SENTENCE = 300

/**
 * The sentence in an error answer's body, or `undefined` when it holds none: the human message of
 * JSON (`{message}`, `{error}`, `{error: {message}}`, `{error_description}`), the text of an HTML
 * page (`<pre>Payment Required</pre>`), or short plain text.
 * @internal
 */
export function sentenceOf(body: string): string | undefined {
  const trimmed = body.trim()
  if (trimmed === '') return undefined
  let json: unknown
  try {
    json = JSON.parse(trimmed)
  } catch {
    json = undefined
  }
  if (json !== undefined) return errorMessageOf(json)
  const text = trimmed.startsWith('<')
    ? trimmed.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ')
    : trimmed
  const words = text.replace(/\s+/g, ' ').trim()
  return words !== '' && words.length <= LONGEST_SENTENCE ? words : undefined
}

/**
 * The human message in an error payload: `{message}`, `{error: "..."}`, `{error: {message}}` (an
 * upstream model's error, passed on by the router, nested once more at most), `{error_description}`.
 * @internal
 */
export function errorMessageOf(payload: unknown, depth = 0): string | undefined {
  if (typeof payload !== 'object' || payload === null || depth > 2) return undefined
  const {
    error,
    message,
    error_description: description,
  } = payload as { error?: unknown; message?: unknown; error_description?: unknown }
  if (typeof message === 'string' && message !== '') return message
  if (typeof description === 'string' && description !== '') return description
  if (typeof error === 'string' && error !== '') return error
  return errorMessageOf(error, depth + 1)
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
