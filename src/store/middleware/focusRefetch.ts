import type { Dispatch } from '@reduxjs/toolkit'
import { setupListeners } from '@reduxjs/toolkit/query'

/** The browser's signals RTK Query refetches on, and the RTK Query action each one is. */
type ListenerActions = Parameters<NonNullable<Parameters<typeof setupListeners>[1]>>[1]

/**
 * Coming back to the page (focus, back online) refetches the balance: RTK Query's listeners, while
 * the session runs in a browser. They are this store's own (RTK Query's `setupListeners` with a
 * handler of ours): before Redux Toolkit 2.14 its default handler listened for the first store of
 * a page only, so a second store (the app's own, or a second provider's) never refetched.
 */
export function focusRefetch(dispatch: Dispatch): { start(): void; stop(): void } {
  let stopListening: (() => void) | undefined
  return {
    start() {
      stopListening ??= typeof window === 'undefined' ? undefined : setupListeners(dispatch, listenToWindow)
    },
    stop() {
      stopListening?.()
      stopListening = undefined
    },
  }
}

function listenToWindow(dispatch: Dispatch, { onFocus, onFocusLost, onOnline, onOffline }: ListenerActions): () => void {
  const handlers: Record<string, () => void> = {
    focus: () => dispatch(onFocus()),
    visibilitychange: () => dispatch(document.visibilityState === 'visible' ? onFocus() : onFocusLost()),
    online: () => dispatch(onOnline()),
    offline: () => dispatch(onOffline()),
  }
  for (const [event, handler] of Object.entries(handlers)) window.addEventListener(event, handler)
  return () => {
    for (const [event, handler] of Object.entries(handlers)) window.removeEventListener(event, handler)
  }
}
