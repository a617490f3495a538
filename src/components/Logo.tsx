import type { ReactElement } from 'react'

/** Props of {@link Logo}. */
export interface LogoProps {
  className?: string
  /** Width and height in pixels. Defaults to 16. */
  size?: number
}

/**
 * Echo's mark, decorative (hidden from screen readers: the text next to it says what it is).
 *
 * @example
 * <Logo size={20} />
 */
export function Logo({ className, size = 16 }: LogoProps): ReactElement {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      data-echo-logo=""
    >
      <circle cx="12" cy="12" r="3" fill="currentColor" />
      <path
        d="M7 7a7 7 0 0 0 0 10M17 7a7 7 0 0 1 0 10"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  )
}
