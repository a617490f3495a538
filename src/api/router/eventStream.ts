import { EchoError } from '../../errors'
import { abortable } from '../abortable'
import { parseServerSentEvents, type ServerSentEvent } from '../sse'
import { callFailure } from '../callFailure'
import { isErrorPayload, streamedError, type FailedRouterCall } from './routerErrors'

/**
 * A streamed model answer: iterate it for the parsed events, each as soon as it arrives. Read it
 * once. Leaving the loop early (`break`, `return`, a throw) cancels the HTTP request, so the model
 * stops and billing stops with it; the call's `signal` does the same from outside, and the loop
 * then throws an `EchoError` for which `isAbortError()` is true. An error the model sends
 * mid-stream, or a dropped connection, is thrown as an `EchoError` too.
 *
 * @example
 * const stream = await router.chat.completions.create({ model: 'gpt-4o', messages, stream: true })
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '')
 */
export interface EchoStream<Event> extends AsyncIterable<Event> {
  /** The router's answer as it came; its body is what the iteration reads. */
  readonly response: Response
}

/**
 * Sends a streaming call and, once the router has answered OK, hands back its events. The
 * answer is read as server-sent events because the call asked to stream: the router sends
 * streams with no Content-Type, so the header cannot tell.
 * @internal
 */
export async function openEventStream<Event, Call extends FailedRouterCall>(
  send: (call: Call) => Promise<Response>,
  call: Call,
): Promise<EchoStream<Event>> {
  // Our own controller, so that leaving the loop can end the request even without a caller signal.
  const controller = new AbortController()
  const unfollow = followAbort(call.signal, controller)
  let response: Response
  try {
    response = await send({ ...call, signal: controller.signal })
  } catch (error) {
    unfollow()
    throw error
  }
  let isTaken = false
  return {
    response,
    [Symbol.asyncIterator]() {
      if (isTaken) throw new Error('This stream has already been read: a streamed answer can be iterated once')
      isTaken = true
      return modelEvents<Event>(response, call, controller, unfollow)
    },
  }
}

async function* modelEvents<Event>(
  response: Response,
  call: FailedRouterCall,
  controller: AbortController,
  unfollow: () => void,
): AsyncGenerator<Event, void, undefined> {
  try {
    if (response.body === null) return
    for await (const event of parseServerSentEvents(readChunks(response.body, controller.signal))) {
      if (event.data === '[DONE]') return
      yield parseModelEvent<Event>(event, call)
    }
  } catch (error) {
    throw callFailure(error, call)
  } finally {
    unfollow()
    // Ends the HTTP request if the caller stopped early; once the body is read through, a no-op.
    controller.abort()
  }
}

/** The body's chunks as they arrive; stopping early or an abort cancels the body's reader. */
async function* readChunks(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader()
  let isDone = false
  try {
    for (;;) {
      const { done, value } = await abortable(reader.read(), signal)
      if (done) {
        isDone = true
        return
      }
      yield value
    }
  } finally {
    // Not awaited: a body that was teed (by `response.clone()`, or an interceptor) settles its
    // cancel only once every branch is cancelled, and stopping must not wait for that.
    if (!isDone) reader.cancel().catch(() => undefined)
  }
}

function parseModelEvent<Event>(event: ServerSentEvent, call: FailedRouterCall): Event {
  let payload: unknown
  try {
    payload = JSON.parse(event.data)
  } catch (error) {
    const excerpt = event.data.length > 200 ? `${event.data.slice(0, 200)}...` : event.data
    throw new EchoError({
      code: 'UNKNOWN_ERROR',
      reason: 'bad-answer',
      message: `The router sent an event that is not JSON: ${excerpt}`,
      endpoint: call.path,
      action: call.action,
      cause: error,
    })
  }
  if (event.event === 'error' || isErrorPayload(payload)) throw streamedError(payload, call)
  return payload as Event
}

/** Makes `controller` abort when `signal` does; returns the undo. */
function followAbort(signal: AbortSignal | null | undefined, controller: AbortController): () => void {
  if (signal == null) return () => undefined
  const onAbort = () => controller.abort(signal.reason)
  if (signal.aborted) onAbort()
  else signal.addEventListener('abort', onAbort, { once: true })
  return () => signal.removeEventListener('abort', onAbort)
}
