import { useLayoutEffect, type RefObject } from 'react'

/** Between the panel and its button, and between the panel and the window's edges (px). */
const GAP_PX = 8
/** The floating panel's width where the window has room (px). */
const PANEL_WIDTH_PX = 320

/**
 * Floats an open `panel` over the page, below `anchor`, when the app's CSS does not place it (it is
 * left in the page's flow, `position: static`): a manual popover in the browser's top layer, so that
 * opening and closing it never moves what is on the page, and a press meant for the page lands
 * where the pointer is. A panel the app places (absolute, fixed, sticky) is left as the app styled it;
 * so is one in a browser without popovers.
 */
export function useFloatingPanel(
  panel: RefObject<HTMLElement | null>,
  anchor: RefObject<HTMLElement | null>,
  open: boolean,
): void {
  useLayoutEffect(() => {
    const element = panel.current
    if (!open || element === null || typeof element.showPopover !== 'function') return undefined
    if (getComputedStyle(element).position !== 'static') return undefined
    const follow = () => placeBelow(element, anchor.current)
    element.setAttribute('popover', 'manual')
    follow()
    element.showPopover()
    window.addEventListener('resize', follow)
    window.addEventListener('scroll', follow, true)
    return () => {
      window.removeEventListener('resize', follow)
      window.removeEventListener('scroll', follow, true)
    }
  }, [panel, anchor, open])
}

/** Puts a top-layer panel below its button, from the button's left edge (or as far left as fits), inside the window. */
function placeBelow(panel: HTMLElement, anchor: HTMLElement | null): void {
  if (anchor === null) return
  const { bottom, left } = anchor.getBoundingClientRect()
  const windowWidth = document.documentElement.clientWidth
  const width = Math.min(PANEL_WIDTH_PX, windowWidth - 2 * GAP_PX)
  const fromLeft = Math.max(Math.min(left, windowWidth - width - GAP_PX), GAP_PX)
  Object.assign(panel.style, {
    boxSizing: 'border-box',
    width: `${width}px`,
    margin: '0',
    inset: `${bottom + GAP_PX}px auto auto ${fromLeft}px`,
    maxHeight: `calc(100vh - ${bottom + 2 * GAP_PX}px)`,
  })
}
