import { abortFailure, EchoError, isAbortError } from '../errors'

/** Where a call went and what it was doing, for the errors it may end in. */
export interface FailedCall {
  /** The path that was called, e.g. `/api/v1/balance`; kept as the error's `endpoint`. */
  path: string
  /** What was being done, for the message: `fetching balance`. */
  action: string
  signal?: AbortSignal | null | undefined
}

/**
 * Anything thrown while a call was sent or read, as the one `EchoError` it means: an abort if the
 * call's signal fired (whatever the reason given), echo-rtk's own errors as they are, and anything
 * else as a `NETWORK_ERROR`. The message ends in ` while <action>`, once.
 * @internal
 */
export function callFailure(error: unknown, { path, action, signal }: FailedCall): EchoError {
  if (signal?.aborted) return abortFailure(signal, action)
  if (error instanceof EchoError || isAbortError(error)) return EchoError.from(error, action)
  return EchoError.network(error, path, action)
}
