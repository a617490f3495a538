import { EchoError, isInsufficientFunds } from '../errors'

/**
 * The answers `echo.route` gives when something went wrong, each one readable sentence
 * (`text/plain`: the AI SDK's `DefaultChatTransport` shows the body as the error), the reason in
 * the headers that the browser's session acts on: a refused token says
 * `WWW-Authenticate: Bearer error="invalid_token"` (the session refreshes once and retries), no
 * credits say `X-Echo-Reason: insufficient-funds` (the session offers a top-up).
 */
export const routeAnswers = {
  tokenRefused: (sentence = 'Your Echo session could not be verified: it has expired or was refused.') =>
    text(401, sentence, { 'WWW-Authenticate': 'Bearer realm="echo", error="invalid_token"' }),
  /** No token, or one of another app: a refresh would not help, so the header asks for none. */
  noToken: (sentence: string) => text(401, sentence, { 'WWW-Authenticate': 'Bearer realm="echo"' }),
  outOfCredits: () =>
    text(402, 'You are out of Echo credits. Add credits to keep going.', { 'X-Echo-Reason': 'insufficient-funds' }),
  echoUnreachable: () =>
    text(503, 'Echo could not be reached to check your session. Try again in a moment.', { 'Retry-After': '5' }),
}

/** The answer for what a route threw, when it is Echo's; `undefined` for anything else (the framework's to answer). */
export function answerForError(error: unknown): Response | undefined {
  if (!(error instanceof EchoError)) return undefined
  if (isInsufficientFunds(error)) return routeAnswers.outOfCredits()
  if (error.statusCode === 401) return routeAnswers.tokenRefused()
  if (error.code === 'NETWORK_ERROR') return text(502, `${error.message}.`, {})
  return text(error.statusCode ?? 500, error.message, {})
}

/** The answer for the first answer of Echo's router through the user's doors, when it refused. */
export function answerForRouterStatus(status: number): Response | undefined {
  if (status === 401) return routeAnswers.tokenRefused()
  if (status === 402) return routeAnswers.outOfCredits()
  return undefined
}

function text(status: number, sentence: string, headers: Record<string, string>): Response {
  return new Response(sentence, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } })
}
