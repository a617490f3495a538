import { ECHO_REASONS } from '../api/serverRoutes'
import type { FetchFunction } from '../api/tokenProvider'
import type { RequestSession } from './heldSession'
import { sentence, sessionAnswers, withCookies } from './sessionAnswers'

/** Request headers that never go on to Echo: the browser's own, the cookie, and any credential a client set. */
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'cookie',
  'authorization',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'origin',
  'referer',
  'accept-encoding',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'x-retry',
  'x-echo-max-cost',
])

/** Answer headers that stay here: Echo's cookies, CORS, and what the body's re-encoding changes. */
const DROPPED_ANSWER_HEADERS = new Set([
  'set-cookie',
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
])

/** Echo's API paths the page may call through the session (the eight calls), with their methods. */
const API_PATHS: readonly [method: string, path: RegExp][] = [
  ['GET', /^apps$/],
  ['GET', /^apps\/[^/]+$/],
  ['GET', /^balance$/],
  ['POST', /^balance\/free$/],
  ['GET', /^balance\/[^/]+\/free$/],
  ['GET', /^supported-models$/],
  ['POST', /^stripe\/payment-link$/],
  ['GET', /^user$/],
  ['POST', /^user\/referral$/],
]

/** Whether `method` `path` (under `/api/v1/`) is one of Echo's calls the session proxies. */
export function isProxiedApiCall(method: string, path: string): boolean {
  return API_PATHS.some(([allowed, pattern]) => allowed === method && pattern.test(path))
}

/**
 * Sends `request` on to `target` (Echo's API or router) as the session's user: the access token
 * added (renewed first when due), everything the browser said about itself and any credential
 * dropped; a 401 to an unexpired token renews it once and sends again, marked `X-Retry: true`
 * (never again). The answer streams back as Echo sends it, with the rotated cookie when there is
 * one: a refusal of the refresh ends the session on this answer (`X-Echo-Reason: session-ended`),
 * and Echo out of reach answers 503 with the user still signed in.
 */
export async function proxyAsUser(
  request: Request,
  target: string,
  session: RequestSession,
  fetch: FetchFunction,
): Promise<Response> {
  let tokens = await session.tokens()
  if (tokens.kind !== 'tokens') return finish(answerWithout(tokens.kind), session)
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
  const send = (token: string, isRetry: boolean) => {
    const headers = forwardedHeaders(request.headers)
    headers.set('Authorization', `Bearer ${token}`)
    if (isRetry) headers.set('X-Retry', 'true')
    return fetch(target, {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: request.signal,
      redirect: 'manual',
    })
  }
  let answer: Response
  try {
    answer = await send(tokens.session.accessToken, false)
    if (answer.status === 401) {
      void answer.body?.cancel().catch(() => undefined)
      tokens = await session.tokens({ force: true })
      if (tokens.kind !== 'tokens') return finish(answerWithout(tokens.kind), session)
      answer = await send(tokens.session.accessToken, true)
    }
  } catch (error) {
    if (request.signal.aborted) throw error
    return finish(
      sentence(503, 'Echo could not be reached. Try again in a moment.', {
        'Retry-After': '5',
        'X-Echo-Reason': ECHO_REASONS.echoUnreachable,
      }),
      session,
    )
  }
  const headers = new Headers()
  for (const [name, value] of answer.headers) if (!DROPPED_ANSWER_HEADERS.has(name)) headers.append(name, value)
  headers.set('Cache-Control', 'no-store')
  if (answer.status === 402) headers.set('X-Echo-Reason', ECHO_REASONS.insufficientFunds)
  return finish(new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers }), session)
}

function answerWithout(kind: 'none' | 'ended' | 'unreachable'): Response {
  if (kind === 'none') return sessionAnswers.notSignedIn()
  return kind === 'ended' ? sessionAnswers.ended() : sessionAnswers.echoUnreachable()
}

/** `response` with what the session's cookie became on the way (rotated, cleared, taken over). */
async function finish(response: Response, session: RequestSession): Promise<Response> {
  return withCookies(response, await session.setCookies())
}

function forwardedHeaders(incoming: Headers): Headers {
  const headers = new Headers()
  for (const [name, value] of incoming)
    if (!DROPPED_REQUEST_HEADERS.has(name) && !name.startsWith('sec-') && !name.startsWith('x-forwarded-'))
      headers.append(name, value)
  return headers
}
