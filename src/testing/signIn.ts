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
 * The real sign-in flow against `echoHandlers` in jsdom, which cannot leave the page: PKCE, the
 * authorize redirect, the code exchange and the profile all run for real.
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
export function echoSignIn({ timeoutMs = 5_000 }: { timeoutMs?: number } = {}): EchoSignInFlow {
  // The sign-in button leaves a moment after the click (PKCE takes a digest): wait for it.
  let left: (url: string) => void = () => undefined
  const leaving = new Promise<string>((resolve) => (left = resolve))
  return {
    navigate: (url) => left(url),
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
        return await followToApp(await Promise.race([leaving, timedOut]))
      } finally {
        clearTimeout(timer)
      }
    },
  }
}

async function followToApp(authorizeUrl: string): Promise<string> {
  const answer = await fetch(authorizeUrl, { redirect: 'manual' })
  const location = answer.headers.get('location')
  if (location === null)
    throw new Error(
      `echoSignIn: Echo's authorize endpoint answered ${answer.status} without sending the user back: ` +
        `${await answer.text()}`,
    )
  window.history.replaceState(null, '', location)
  return location
}
