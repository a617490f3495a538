import type { Dispatch } from '@reduxjs/toolkit'
import { setupListeners } from '@reduxjs/toolkit/query'

/** Coming back to the page (focus, back online) refetches the balance: RTK Query's listeners, while the session runs in a browser. */
export function focusRefetch(dispatch: Dispatch): { start(): void; stop(): void } {
  let stopListening: (() => void) | undefined
  return {
    start() {
      stopListening ??= typeof window === 'undefined' ? undefined : setupListeners(dispatch)
    },
    stop() {
      stopListening?.()
      stopListening = undefined
    },
  }
}
