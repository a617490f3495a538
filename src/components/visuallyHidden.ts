import type { CSSProperties } from 'react'

/**
 * Hidden from sight, read by screen readers: the one inline style echo-rtk sets, for labels and
 * its announcer (the components inject no CSS an app would have to override). Out of the flow and
 * clipped to nothing, margins, padding and borders included, so the usual `margin`, `padding` and
 * `border` resets are left out: each is a shorthand the browser (and jsdom, slowly) expands.
 */
export const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
}
