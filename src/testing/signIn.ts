import { POPUP_TARGET } from '../auth/popup'
import { DEFAULT_SERVER_URL } from '../config'

/** The real sign-in, run in a test: see {@link echoSignIn}. */
export interface EchoSignInFlow {
  /**
   * Pass it as `<EchoSignIn navigate>` (or `signIn({ navigate })`): instead of leaving the page, it
   * asks the msw Echo's authorize endpoint, which answers with the redirect back and a code.
   */
  navigate: (url: string) => void
  /**
   * Resolves, with the address, once the app has left for Echo and Echo has sent the user back:
   * the address bar then holds the code and state, as after the redirect. Render the app again (the
   * page loading again, as in a browser) and it completes the sign-in.
   */
  backFromEcho: () => Promise<string>
}

/**
 * The real sign-in flow against `echoHandlers` in jsdom or happy-dom, which cannot leave the page:
 * PKCE, the authorize redirect, the code exchange and the profile all run for real (in server mode,
 * on the app's server that `echoHandlers({ session: 'server' })` plays; `serverUrl` is where it is). Until the app
 * leaves, the browser blocks Echo's sign-in window (`window.open` answers `null` for it), so an app
 * with `signIn: 'popup'` leaves by the redirect, as it does where a real browser blocks the window.
 *
 * @example
 * const echo = echoSignIn()
 * const { unmount } = render(<App signInNavigate={echo.navigate} />)
 * await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
 * await echo.backFromEcho()
 * unmount()
 * render(<App />)
 * expect(await screen.findByText('Signed in as Ada Lovelace', { exact: false })).toBeDefined()
 */
export function echoSignIn({
  timeoutMs = 5_000,
  serverUrl = DEFAULT_SERVER_URL,
}: { timeoutMs?: number; serverUrl?: string } = {}): EchoSignInFlow {
  const signInWindow = blockSignInWindow()
  // The sign-in button leaves a moment after the click (PKCE takes a digest): wait for it.
  let left: (url: string) => void = () => undefined
  const leaving = new Promise<string>((resolve) => (left = resolve))
  return {
    navigate: (url) => {
      signInWindow.unblock()
      left(url)
    },
    backFromEcho: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(`echoSignIn: nothing left for Echo within ${timeoutMs} ms (click the sign-in button first)`),
            ),
          timeoutMs,
        )
      })
      try {
        return await followToApp(await Promise.race([leaving, timedOut]), serverUrl.replace(/\/+$/, ''))
      } finally {
        clearTimeout(timer)
        signInWindow.unblock()
      }
    },
  }
}

/**
 * Makes `window.open` answer `null` for Echo's sign-in window until `unblock()`; other windows open as before. jsdom
 * opens none anyway; happy-dom opens a real one and loads Echo's pages in it, then the app's own page, where no test
 * can follow (and msw answers no page of the app).
 */
function blockSignInWindow(): { unblock(): void } {
  const open = Reflect.get<Window, 'open'>(window, 'open')
  const own = Object.getOwnPropertyDescriptor(window, 'open')
  let blocking = true
  const blocked: typeof window.open = (...args) =>
    blocking && args[1] === POPUP_TARGET ? null : Reflect.apply(open, window, args)
  // Defined, not assigned: vitest's jsdom serves `window.open` through a getter.
  Object.defineProperty(window, 'open', { value: blocked, configurable: true, writable: true })
  return {
    unblock: () => {
      blocking = false
      // Not if a test spied on it meanwhile: its spy calls this one, which now opens every window.
      if (window.open !== blocked) return
      if (own === undefined) Reflect.deleteProperty(window, 'open')
      else Object.defineProperty(window, 'open', own)
    },
  }
}

/**
 * Follows the sign-in from `url` until it comes back to a page of the app: Echo's authorize answers
 * with the redirect back; in server mode the app's server's `signin` and `callback` routes come
 * first and last (under `serverPath`), as a browser follows them.
 */
async function followToApp(url: string, serverPath: string): Promise<string> {
  let next = url
  for (let hop = 0; hop < 6; hop += 1) {
    const answer = await fetch(next, { redirect: 'manual' })
    const location = answer.headers.get('location')
    if (location === null)
      throw new Error(
        `echoSignIn: ${new URL(next).pathname} answered ${answer.status} without sending the user on: ` +
          `${await answer.text()}`,
      )
    next = new URL(location, next).href
    const back = new URL(next)
    if (back.origin === window.location.origin && !back.pathname.startsWith(`${serverPath}/`)) {
      window.history.replaceState(null, '', next)
      return next
    }
  }
  throw new Error(`echoSignIn: the sign-in did not come back to the app within 6 redirects (last: ${next})`)
}
