import { http, HttpResponse } from 'msw'

import { createEchoRouter, type EchoRouter } from '../../../src/client'
import { server } from '../../support/server'
import { rotatingTokens } from '../../support/tokens'

export const ROUTER = 'https://router.echo.test'

/** A router for the signed-in user `user-token`, against the msw router at {@link ROUTER}. */
export function userRouter(token = 'user-token'): EchoRouter {
  return createEchoRouter({ baseRouterUrl: ROUTER, tokenProvider: rotatingTokens(token).provider })
}

export interface SeenRequest {
  method: string
  /** Path and query, e.g. `/models/gemini:streamGenerateContent?alt=sse`. */
  url: string
  headers: Headers
  /** A copy of the request, to read its body. */
  request: Request
  /** The request's own signal: aborted when the client cancels the HTTP request. */
  signal: AbortSignal
}

/** Answers every router call with `answer(request)` (JSON `{}` by default) and records the requests. */
export function recordRouter(
  answer: (request: Request) => Response | Promise<Response> = () => HttpResponse.json({}),
): SeenRequest[] {
  const seen: SeenRequest[] = []
  server.use(
    http.all(`${ROUTER}/*`, async ({ request }) => {
      const url = new URL(request.url)
      // The body is read before the answer, as a server reads an upload: msw 3 parses the request off a socket, and
      // a body still arriving (a multipart recording) is cut off once the exchange is answered.
      const body = request.body === null ? null : await request.clone().arrayBuffer()
      seen.push({
        method: request.method,
        url: url.pathname + url.search,
        headers: request.headers,
        request: new Request(request.url, { method: request.method, headers: request.headers, body }),
        signal: request.signal,
      })
      return answer(request)
    }),
  )
  return seen
}

/** The parsed JSON body the router got. */
export async function jsonBody(seen: SeenRequest | undefined): Promise<unknown> {
  if (seen === undefined) throw new Error('The router got no request')
  return JSON.parse(await seen.request.text()) as unknown
}

const encoder = new TextEncoder()

export interface ControlledStream {
  /** The answer to return from a handler: the bytes pushed so far, and more as they are pushed. No Content-Type, as Echo sends it. */
  response: Response
  push(text: string): void
  close(): void
  fail(error: Error): void
  /** Resolves when the client cancels the body's reader (seen only without an interceptor in between). */
  cancelled: Promise<unknown>
}

/** An SSE answer whose chunks the test writes one by one, and which tells when it is cancelled. */
export function controlledStream(): ControlledStream {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let cancelledWith!: (reason: unknown) => void
  const cancelled = new Promise<unknown>((resolve) => (cancelledWith = resolve))
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
      // An empty first chunk sends the status and headers at once, as Echo does before its first event: msw 3 writes
      // the answer through Node's ServerResponse, which holds the head back until the first body write, so `fetch`
      // would not resolve until the test pushes.
      c.enqueue(new Uint8Array(0))
    },
    cancel(reason) {
      cancelledWith(reason)
    },
  })
  return {
    // Chunked, as a streamed HTTP/1.1 answer is: msw 3 sends the answer over a socket, and without framing a
    // connection cut mid-stream would read as the answer's end.
    response: new HttpResponse(body, { status: 200, headers: { 'Transfer-Encoding': 'chunked' } }),
    push: (text) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    fail: (error) => controller.error(error),
    cancelled,
  }
}

/** A whole SSE answer at once, with no Content-Type: each payload as one `data:` event, then `[DONE]` if asked. */
export function sseResponse(events: readonly { event?: string; data: unknown }[], { done = false } = {}): Response {
  const text =
    events
      .map(({ event, data }) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`)
      .join('') + (done ? 'data: [DONE]\n\n' : '')
  // A stream body, so the answer has no Content-Type at all, like Echo's router.
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(text))
      controller.close()
    },
  })
  return new HttpResponse(body, { status: 200 })
}

/** Resolves once `signal` aborts. */
export function whenAborted(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return Promise.reject(new Error('The router got no request'))
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}
