// Where Echo is, from the server's environment: the local dev server unless told otherwise (as
// `npm run demo` does). Read when a request comes, so one build serves any Echo.

/** The local dev server's demo app (`npm run dev-server` prints it). */
const LOCAL_DEMO_APP_ID = '6f1d2c7a-3b8e-4e15-9c0a-2d7b5e8f4a31'

export function echoSettings() {
  return {
    appId: process.env.ECHO_APP_ID ?? LOCAL_DEMO_APP_ID,
    apiUrl: process.env.ECHO_API_URL ?? 'http://127.0.0.1:8787',
    baseRouterUrl: process.env.ECHO_ROUTER_URL ?? 'http://127.0.0.1:8788',
    // The user's session is held here, sealed in an HttpOnly cookie with this secret (32+ characters,
    // `openssl rand -base64 32`); left unset, sign-in answers 500 and the server's log says what to set.
    session: { secret: process.env.ECHO_SESSION_SECRET },
  }
}
