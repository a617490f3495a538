import { ECHO_REASONS } from '../api/serverRoutes'

// The answers of the server-held session's routes: one readable sentence as text/plain (a client
// such as the AI SDK shows the body as its error), the reason in `X-Echo-Reason` for the page's
// session to act on, and never cached (they are one user's).

/** A plain-text answer: one sentence, with `headers`. */
export function sentence(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  })
}

/** A JSON answer, never cached. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
  })
}

/** A redirect (302) to `location`, setting `setCookies`. */
export function redirect(location: string, setCookies: readonly string[]): Response {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' })
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie)
  return new Response(null, { status: 302, headers })
}

/** `response` with `setCookies` added (a rotated or cleared session); the same response when there are none. */
export function withCookies(response: Response, setCookies: readonly string[]): Response {
  if (setCookies.length === 0) return response
  const headers = new Headers(response.headers)
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

/** The answers a session route gives when there is no session to act for. */
export const sessionAnswers = {
  notSignedIn: () =>
    sentence(401, 'Nobody is signed in to Echo here: sign in first.', {
      'WWW-Authenticate': 'Bearer realm="echo"',
      'X-Echo-Reason': ECHO_REASONS.notSignedIn,
    }),
  ended: () =>
    sentence(401, 'Your session has ended. Sign in again.', {
      'WWW-Authenticate': 'Bearer realm="echo"',
      'X-Echo-Reason': ECHO_REASONS.sessionEnded,
    }),
  echoUnreachable: () =>
    sentence(503, 'Echo could not be reached to renew your session. Try again in a moment.', {
      'Retry-After': '5',
      'X-Echo-Reason': ECHO_REASONS.echoUnreachable,
    }),
  crossSite: () =>
    sentence(403, "Refused: this request did not come from this app's own pages.", {
      'X-Echo-Reason': ECHO_REASONS.crossSite,
    }),
}
