import type { RequestOptions } from '../EchoClient'
import type { EchoStream } from './eventStream'
import type { StreamingCreate } from './EchoRouter'
import type { RouterCall, RouterTransport } from './routerTransport'

type MaybeStreaming<Body> = Body & { stream?: boolean | null | undefined }

/**
 * A `create` method that streams exactly when the body says `stream: true`: the flag, not the
 * answer's Content-Type, decides how the answer is read. `toCall` checks the body; what it refuses
 * rejects the returned promise, never throws at the caller.
 * @internal
 */
export function streamingCreate<Body extends object, Answer, Event>(
  transport: RouterTransport,
  toCall: (body: MaybeStreaming<Body> | null | undefined, options?: RequestOptions | null) => RouterCall,
): StreamingCreate<Body, Answer, Event> {
  function create(body: Body & { stream: true }, options?: RequestOptions): Promise<EchoStream<Event>>
  function create(body: Body & { stream?: false | null | undefined }, options?: RequestOptions): Promise<Answer>
  function create(body: MaybeStreaming<Body>, options?: RequestOptions): Promise<Answer | EchoStream<Event>>
  async function create(body: MaybeStreaming<Body>, options?: RequestOptions): Promise<Answer | EchoStream<Event>> {
    const call = toCall(body, options)
    return body.stream === true ? transport.stream<Event>(call) : transport.json<Answer>(call)
  }
  return create
}
