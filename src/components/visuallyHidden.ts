import type { CSSProperties } from 'react'

/**
 * Hidden from sight, read by screen readers: the one inline style echo-rtk sets, for labels and
 * its announcer (the components inject no CSS an app would have to override).
 */
export const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
}
