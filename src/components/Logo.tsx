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
    <svg className={className} width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" data-echo-logo="">
      <circle cx="12" cy="12" r="3" fill="currentColor" />
      <path d="M6.3 6.3a8 8 0 0 0 0 11.4M17.7 6.3a8 8 0 0 1 0 11.4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <path d="M3.5 3.5a12 12 0 0 0 0 17M20.5 3.5a12 12 0 0 1 0 17" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" opacity="0.5" />
    </svg>
  )
}
