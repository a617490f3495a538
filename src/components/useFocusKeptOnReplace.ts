import { useLayoutEffect, useRef, type FocusEvent, type RefObject } from 'react'

/**
 * Keeps the keyboard focus in `root` when what it shows is replaced (the account button by `Sign
 * in` when a session ends, say): if the focus was inside and the control it was on is gone, the
 * first button of the new content takes it, so it never falls to `<body>` (WCAG 2.4.3). Spread the
 * returned handlers on `root`'s element; `shown` is what decides the content.
 */
export function useFocusKeptOnReplace(root: RefObject<HTMLElement | null>, shown: unknown) {
  const focusInside = useRef(false)

  useLayoutEffect(() => {
    const active = document.activeElement
    // Still inside, or moved somewhere on purpose: leave it.
    if (!focusInside.current || (active !== null && active !== document.body)) return
    root.current?.querySelector<HTMLElement>('button, [href], input')?.focus()
  }, [root, shown])

  return {
    onFocus: () => {
      focusInside.current = true
    },
    onBlur: (event: FocusEvent) => {
      const next = event.relatedTarget
      if (next instanceof Node) {
        focusInside.current = root.current?.contains(next) ?? false
        return
      }
      // Focus went nowhere: the user left for the page (the control is still there), or the
      // control was removed, which is what the effect above repairs.
      const left = event.target
      queueMicrotask(() => {
        if (left.isConnected) focusInside.current = false
      })
    },
  }
}
