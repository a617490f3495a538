import { EchoError, errorMessageOf } from '../../errors'
import type { FailedCall } from '../callFailure'

/** A router call that failed: a {@link FailedCall}, for which model. */
export interface FailedRouterCall extends FailedCall {
  model?: string | undefined
}

/**
 * The `EchoError` for a non-OK router answer. A 402 says "insufficient funds" whatever the body
 * (Echo may answer with an HTML page or a payment-requirements document); a 422 names the unknown
 * model and carries the router's `{error}` message; anything else is `HTTP_<status>` with the body
 * text as message.
 * @internal
 */
export async function routerHttpError(
  response: Response,
  call: FailedRouterCall,
  refreshError?: Error,
): Promise<EchoError> {
  return EchoError.fromResponse(response, {
    endpoint: call.path,
    action: call.action,
    refreshError,
    describe: (status, body) => describeFailure(status, body, call.model),
  })
}

/** The `EchoError` for an error the router or the model sent inside a stream that had begun. */
export function streamedError(payload: unknown, call: FailedRouterCall): EchoError {
  return new EchoError({
    code: 'UNKNOWN_ERROR',
    reason: 'model-error',
    message: `The model stream failed: ${errorMessageOf(payload) ?? JSON.stringify(payload)}`,
    endpoint: call.path,
    action: call.action,
  })
}

/** True for a streamed event that reports an error rather than a piece of the answer. */
export function isErrorPayload(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null) return false
  const { type, error } = payload as { type?: unknown; error?: unknown }
  return type === 'error' || (error !== undefined && error !== null)
}

/** The router's own words for a 402 and a 422; any other answer's message is its body text. */
function describeFailure(status: number, body: string, model: string | undefined): string | undefined {
  const routerMessage = errorMessageOf(parseJson(body))
  if (status === 402) return routerMessage === undefined ? 'Insufficient funds' : `Insufficient funds: ${routerMessage}`
  if (status === 422) {
    const unknown = model === undefined ? 'Unknown model' : `Unknown model "${model}"`
    return routerMessage === undefined ? unknown : `${unknown}: ${routerMessage}`
  }
  return undefined
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
