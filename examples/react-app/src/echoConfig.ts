import type { EchoConfig } from 'echo-rtk'

/** The local dev server's demo app (`npm run dev-server` prints it). */
const LOCAL_DEMO_APP_ID = '6f1d2c7a-3b8e-4e15-9c0a-2d7b5e8f4a31'

/** The local dev server by default; set VITE_ECHO_* (see the README) to use the real Echo. */
export const echoConfig: EchoConfig = {
  appId: import.meta.env.VITE_ECHO_APP_ID ?? LOCAL_DEMO_APP_ID,
  apiUrl: import.meta.env.VITE_ECHO_API_URL ?? 'http://127.0.0.1:8787',
  baseRouterUrl: import.meta.env.VITE_ECHO_ROUTER_URL ?? 'http://127.0.0.1:8788',
  // Sign-in keeps the page: a window of its own (the redirect where the browser blocks it), opened by
  // the sign-in button or by a chat asked while signed out.
  signIn: 'popup',
  signInOnDemand: true,
}
