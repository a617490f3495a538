import type { TokenProvider } from '../../src/client'

/** A token source as an app would have one: a current token, a refresh that swaps it, and counters. */
export function rotatingTokens(first = 'token-1') {
  let current: string | null = first
  let generation = 1
  const state = {
    refreshCalls: 0,
    refreshErrors: [] as Error[],
    get current() {
      return current
    },
    set current(token: string | null) {
      current = token
    },
  }
  const provider: TokenProvider = {
    getAccessToken: () => Promise.resolve(current),
    refreshToken: () => {
      state.refreshCalls += 1
      generation += 1
      current = `token-${generation}`
      return Promise.resolve(current)
    },
    onRefreshError: (error) => state.refreshErrors.push(error),
  }
  return { provider, state }
}

export const API = 'https://echo.test'
