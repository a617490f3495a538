import { ceilingProblem } from '../../config'
import { EchoError } from '../../errors'
import type { AuthorizedSend } from '../authorizedFetch'
import { openEventStream, type EchoStream } from './eventStream'
import { callFailure } from '../callFailure'
import { routerHttpError, type FailedRouterCall } from './routerErrors'

/** One call to the router. */
export interface RouterCall extends FailedRouterCall {
  /** Sent as JSON, or as multipart when it is `FormData`. */
  body: object
  headers?: Record<string, string>
  /** The call's own price ceiling, in US dollars, sent as `X-Echo-Max-Cost` for the ceiling under the fetch. */
  maxCost?: number | undefined
}

/** How the router methods send a call and read its answer. @internal */
export interface RouterTransport {
  json<T>(call: RouterCall): Promise<T>
  text(call: RouterCall): Promise<string>
  blob(call: RouterCall): Promise<Blob>
  stream<Event>(call: RouterCall): Promise<EchoStream<Event>>
}

/**
 * Sends router calls through the authorized fetch (bearer token, one shared refresh, one marked
 * retry) and turns every failure into an `EchoError` ending in ` while <action>`.
 * @internal
 */
export function createRouterTransport(sendAuthorized: AuthorizedSend, routerUrl: string): RouterTransport {
  const send = (call: RouterCall) => sendRouterCall(sendAuthorized, routerUrl, call)
  const readText = async (response: Response, call: RouterCall) => {
    try {
      return await response.text()
    } catch (error) {
      throw callFailure(error, call)
    }
  }
  return {
    async json<T>(call: RouterCall) {
      const text = await readText(await send(call), call)
      try {
        return JSON.parse(text) as T
      } catch (error) {
        throw new EchoError({
          code: 'UNKNOWN_ERROR',
          reason: 'bad-answer',
          message: 'The router answered with a body that is not JSON',
          endpoint: call.path,
          action: call.action,
          cause: error,
        })
      }
    },
    async text(call) {
      return readText(await send(call), call)
    },
    async blob(call) {
      const response = await send(call)
      try {
        return await response.blob()
      } catch (error) {
        throw callFailure(error, call)
      }
    },
    stream: (call) => openEventStream(send, call),
  }
}

/** Sends one call; resolves to the OK answer, or rejects with the `EchoError` for its failure. */
async function sendRouterCall(sendAuthorized: AuthorizedSend, routerUrl: string, call: RouterCall): Promise<Response> {
  // FormData is sent as it is: fetch writes the multipart boundary into the Content-Type itself.
  const body = call.body instanceof FormData ? call.body : JSON.stringify(call.body)
  const headers: Record<string, string> =
    typeof body === 'string' ? { 'Content-Type': 'application/json', ...call.headers } : { ...call.headers }
  if (call.maxCost !== undefined) {
    const problem = ceilingProblem("A router call's maxCost", call.maxCost)
    if (problem !== null)
      throw new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-argument', message: problem, action: call.action })
    headers['X-Echo-Max-Cost'] = String(call.maxCost)
  }
  let outcome
  try {
    outcome = await sendAuthorized(`${routerUrl}${call.path}`, {
      method: 'POST',
      headers,
      body,
      ...(call.signal === undefined ? {} : { signal: call.signal }),
    })
  } catch (error) {
    throw callFailure(error, call)
  }
  const { response, refreshError } = outcome
  if (!response.ok) throw await routerHttpError(response, call, refreshError)
  return response
}
