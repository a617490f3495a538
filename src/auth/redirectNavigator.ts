import type { INavigator } from 'oidc-client-ts'

/**
 * oidc-client-ts's redirect navigator, leaving the page through the session environment's
 * `navigate` (so tests and hosts can see where sign-in goes) instead of `window.location` itself.
 */
export function redirectNavigator(navigate: (url: string) => void): INavigator {
  return {
    prepare: () =>
      Promise.resolve({
        navigate: ({ url }) => {
          navigate(url)
          return Promise.resolve({ url })
        },
        close: () => undefined,
      }),
    callback: () => Promise.resolve(),
  }
}
