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
}

/**
 * Sends a JSON call through the authorized fetch and returns the parsed answer; every failure
 * becomes an `EchoError` whose message ends in ` while <action>`.
 * @internal
 */
export async function requestJson<T>(sendAuthorized: AuthorizedSend, apiUrl: string, request: JsonRequest): Promise<T> {
  const { method, path, body, action, signal, read } = request
  let outcome
  try {
    outcome = await sendAuthorized(`${apiUrl}${path}`, {
      method,
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    })
  } catch (error) {
    throw callFailure(error, request)
  }

  const { response, refreshError } = outcome
  if (!response.ok) throw await EchoError.fromResponse(response, { endpoint: path, action, refreshError })
  let answer: unknown
  try {
    answer = await response.json()
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) throw callFailure(error, request)
    throw new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-answer', message: 'Echo answered with a body that is not JSON', endpoint: path, cause: error, action })
  }
  if (read === undefined) return answer as T
  try {
    return read(answer) as T
  } catch (error) {
    throw new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-answer', message: error instanceof Error ? error.message : String(error), endpoint: path, action })
  }
}
