import { ECHO_PATHS } from '../echoPaths'
import type { FetchFunction } from './tokenProvider'

/** Why Echo's token endpoint refused a grant: its OAuth error code (else the status), or an answer without a token. */
export type GrantRefusalCause = { by: 'echo'; error: string } | { by: 'no-access-token' }

/** Why a grant got no answer from Echo: no connection, a status that says "later", not Echo, or no answer in time. */
export type GrantInterruptionCause =
  | { by: 'offline'; detail: string }
  | { by: 'status'; status: number }
  | { by: 'not-echo'; status: number }
  | { by: 'deadline' }

/**
 * What Echo's token endpoint made of a grant (a code exchange or a refresh): Echo's answer with an
 * access token; a refusal (a 4xx, or an answer of Echo's without an access token), after which the
 * grant cannot succeed; or no answer from Echo at all (offline, a dropped or refused connection, a
 * 5xx or 429, a page that is not Echo's JSON such as a captive portal's, `signal` aborted), after
 * which it may succeed later.
 */
export type GrantReading =
  | { kind: 'tokens'; answer: TokenAnswer }
  | { kind: 'refused'; error: Error; cause: GrantRefusalCause }
  | { kind: 'unreachable'; error: Error; cause: GrantInterruptionCause }

/** Echo's token answer: an access token for sure; the rest as Echo sent it. */
export type TokenAnswer = Record<string, unknown> & { access_token: string }

/** Why a grant given up at its caller's deadline failed. */
const NO_ANSWER_IN_TIME = 'Echo did not answer the token request in time'

/** The answers of a token endpoint that say nothing about the grant: try again later. */
const TRY_AGAIN_STATUSES = new Set([408, 425, 429])

/**
 * Sends `form` (a grant: `grant_type` and its fields) to Echo's token endpoint under `apiUrl` and
 * reads the answer. Never throws: every way it can end is a {@link GrantReading}. A refusal's words
 * are Echo's `error_description`, else its `error`, else the status; its cause keeps only an OAuth
 * error code (what answered may be any server).
 */
export async function requestTokenGrant(
  fetch: FetchFunction,
  apiUrl: string,
  form: URLSearchParams,
  { signal, headers }: { signal?: AbortSignal | undefined; headers?: Record<string, string> | undefined } = {},
): Promise<GrantReading> {
  let status: number
  let body: string
  try {
    // A URLSearchParams body is sent as application/x-www-form-urlencoded, a simple CORS request.
    const response = await fetch(`${apiUrl}${ECHO_PATHS.token}`, {
      method: 'POST',
      body: form,
      ...(signal === undefined ? {} : { signal }),
      ...(headers === undefined ? {} : { headers }),
    })
    status = response.status
    body = await response.text()
  } catch (error) {
    // The request never got a whole answer: offline, a reset, a page going away, or the caller's deadline.
    if (signal?.aborted) return { kind: 'unreachable', error: new Error(NO_ANSWER_IN_TIME), cause: { by: 'deadline' } }
    const detail = describe(error)
    return { kind: 'unreachable', error: new Error(detail), cause: { by: 'offline', detail: causeText(detail) } }
  }
  const answer = parseJsonObject(body)
  if (status >= 500 || TRY_AGAIN_STATUSES.has(status))
    return {
      kind: 'unreachable',
      error: new Error(`Echo's token endpoint answered ${status}`),
      cause: { by: 'status', status },
    }
  if (status < 200 || status >= 300) {
    const cause = { by: 'echo', error: oauthErrorCode(answer?.error) ?? `status ${status}` } as const
    return { kind: 'refused', error: new Error(refusalText(answer, status)), cause }
  }
  if (answer === null) {
    const error = new Error(`The token endpoint's answer is not Echo's (status ${status}, not a JSON object)`)
    return { kind: 'unreachable', error, cause: { by: 'not-echo', status } }
  }
  if (typeof answer.access_token !== 'string' || answer.access_token === '') {
    const error = new Error('Silent renew did not yield a new access token')
    return { kind: 'refused', error, cause: { by: 'no-access-token' } }
  }
  return { kind: 'tokens', answer: answer as TokenAnswer }
}

/** Echo's words for a refusal: `error_description`, else `error`, else the status. */
function refusalText(answer: Record<string, unknown> | null, status: number): string {
  return text(answer?.error_description) ?? text(answer?.error) ?? `Echo refused the refresh (status ${status})`
}

/**
 * Echo's `error`, if it is an OAuth error code (RFC 6749's characters but the space, at most 64): what
 * answered a refresh with 4xx may be any server, and its words go to Redux DevTools only as a code.
 */
function oauthErrorCode(value: unknown): string | undefined {
  return typeof value === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(value) ? value : undefined
}

/** A message as a cause carries it: at most 120 characters. @internal */
export function causeText(message: string): string {
  return message.length > 120 ? `${message.slice(0, 119)}…` : message
}

/** `value` if it is text that says something, else `undefined`. @internal */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function parseJsonObject(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
