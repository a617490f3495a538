import { EchoError, isAbortError } from '../errors'
import type { AuthorizedSend } from './authorizedFetch'
import { callFailure } from './callFailure'

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
   * request in `no-cors` mode, which carries nothing, tells the two apart).
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
    if (whenRouteMissing !== undefined && failure.code === 'NETWORK_ERROR' && (await answersUnreadably(url, signal)))
      return (await whenRouteMissing()) as T
    throw failure
  }

  const { response, refreshError } = outcome
  if (response.status === 404 && whenRouteMissing !== undefined) {
    void response.body?.cancel().catch(() => undefined)
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
async function answersUnreadably(url: string, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await globalThis.fetch(url, { mode: 'no-cors', credentials: 'omit', ...(signal === undefined ? {} : { signal }) })
    return true
  } catch {
    return false
  }
}
