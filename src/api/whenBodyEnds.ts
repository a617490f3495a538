/**
 * `response` with `onEnd` called once when its body is done with: read to the end, failed,
 * cancelled (a `break` out of a stream), or aborted through `signal`. A body-less answer ends at once.
 */
export function whenBodyEnds(response: Response, signal: AbortSignal | null | undefined, onEnd: () => void): Response {
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    signal?.removeEventListener('abort', end)
    onEnd()
  }
  if (response.body === null) {
    end()
    return response
  }
  signal?.addEventListener('abort', end, { once: true })
  const reader = response.body.getReader()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (done) {
          controller.close()
          end()
        } else {
          controller.enqueue(value)
        }
      } catch (error) {
        controller.error(error)
        end()
      }
    },
    cancel(reason) {
      end()
      return reader.cancel(reason)
    },
  })
  return withBody(response, body)
}

/** `response` over again with `body`: the same status, headers and URL. @internal */
export function withBody(response: Response, body: BodyInit): Response {
  const copy = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
  Object.defineProperty(copy, 'url', { value: response.url })
  return copy
}
