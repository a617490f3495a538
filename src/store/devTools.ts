import type { Action, DevToolsEnhancerOptions } from '@reduxjs/toolkit'

import { echoDevMoments } from './dev/moments'

const REDACTED = '[redacted]'
const TOKEN_KEY = /^(access_?token|refresh_?token|id_?token|token)$/i

/** A copy of `value` with every token-named field replaced by `'[redacted]'`; the original is untouched. */
export function redactTokens<T>(value: T, depth = 0): T {
  if (depth > 8 || typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item: unknown) => redactTokens(item, depth + 1)) as T
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    copy[key] = TOKEN_KEY.test(key) && typeof field === 'string' ? REDACTED : redactTokens(field, depth + 1)
  }
  return copy as T
}

/**
 * Redux DevTools options that keep tokens out of the devtools: every token in an action or in the
 * state shows as `'[redacted]'`. In development, DevTools' dispatcher lists the moments an app must
 * handle (`echoDevMoments`: an expired token, the session ended, a 402, offline, a low balance, a
 * top-up arriving), to play on the real session. `createEchoStore` uses them; pass them to your own
 * `configureStore`.
 *
 * @example
 * configureStore({ reducer, middleware, devTools: echoDevToolsOptions })
 */
export const echoDevToolsOptions: DevToolsEnhancerOptions = {
  name: 'echo-rtk',
  actionSanitizer: <A extends Action>(action: A): A => redactTokens(action),
  stateSanitizer: <S>(state: S): S => redactTokens(state),
  // DevTools' dispatcher lists the moments in development builds only (bundlers replace NODE_ENV, and drop the rest).
  ...(process.env.NODE_ENV !== 'production' && { actionCreators: echoDevMoments }),
}
