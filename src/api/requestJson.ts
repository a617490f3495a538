import { abortFailure, EchoError, isAbortError } from '../errors'
import { withRefreshFailure, type AuthorizedSend } from './authorizedFetch'

/** One JSON call to Echo's API. */
export interface JsonRequest {
  method: 'GET' | 'POST'
  /** The path under the API host, e.g. `/api/v1/balance`; kept as the error's `endpoint`. */
  path: string
  body?: unknown
  /** What is being done, for the error message: `fetching balance`. */
  action: string
  signal?: AbortSignal | undefined
}

/**
 * Sends a JSON call through the authorized fetch and returns the parsed answer; every failure
 * becomes an `EchoError` whose message ends in ` while <action>`.
 * @internal
 */
export async function requestJson<T>(sendAuthorized: AuthorizedSend, apiUrl: string, request: JsonRequest): Promise<T> {
  const { method, path, body, action, signal } = request
  let outcome
  try {
    outcome = await sendAuthorized(`${apiUrl}${path}`, {
      method,
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    })
  } catch (error) {
    if (signal?.aborted) throw abortFailure(signal, action)
    throw EchoError.from(error instanceof EchoError || isAbortError(error) ? error : EchoError.network(error, path), action)
  }

  const { response, refreshError } = outcome
  if (!response.ok) throw EchoError.from(await httpError(response, path, refreshError), action)
  try {
    return (await response.json()) as T
  } catch (error) {
    if (signal?.aborted) throw abortFailure(signal, action)
    if (isAbortError(error)) throw EchoError.from(error, action)
    throw new EchoError({ code: 'UNKNOWN_ERROR', message: 'Echo answered with a body that is not JSON', endpoint: path, cause: error, action })
  }
}

async function httpError(response: Response, path: string, refreshError: Error | undefined): Promise<EchoError> {
  const error = await EchoError.fromResponse(response, path)
  if (refreshError === undefined) return error
  return new EchoError({ ...error.toJSON(), message: withRefreshFailure(error.message, refreshError), cause: refreshError })
}
