import { answerForRouterStatus } from './routeAnswers'

/**
 * Holds `response` (a handler's answer) until the first answer of Echo's router through the user's
 * doors is in (`firstStatus`), so that a refusal at the start becomes the route's own status (401,
 * 402) rather than a 200 with an error inside: what the body sends meanwhile is kept and passed on
 * in order. A body that ends first (no model call, or one made before the answer) goes out whole.
 * A refusal after the first answer cannot change the status any more: the stream carries it.
 */
export async function afterFirstRouterAnswer(response: Response, firstStatus: Promise<number>): Promise<Response> {
  if (response.body === null) return response
  const reader = response.body.getReader()
  const kept: Uint8Array[] = []
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined
  for (;;) {
    pending ??= reader.read()
    const next = await Promise.race([
      firstStatus.then((status) => ({ status })),
      pending.then(
        (read) => ({ read }),
        (failure: unknown) => ({ failure }),
      ),
    ])
    if ('status' in next) {
      const refusal = answerForRouterStatus(next.status)
      if (refusal !== undefined) {
        void reader.cancel().catch(() => undefined)
        return refusal
      }
      break
    }
    if ('failure' in next) return passOn(response, kept, reader, pending)
    pending = undefined
    if (next.read.done) return new Response(kept.length === 0 ? null : new Blob(kept as BlobPart[]), response)
    kept.push(next.read.value)
  }
  return passOn(response, kept, reader, pending)
}

/** `response` again: the chunks kept, then the rest of `reader` (starting with `pending`, if a read is under way). */
function passOn(
  response: Response,
  kept: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
  pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined,
): Response {
  let waiting = pending
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of kept) controller.enqueue(chunk)
    },
    async pull(controller) {
      const { done, value } = await (waiting ?? reader.read())
      waiting = undefined
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
  return new Response(body, response)
}
