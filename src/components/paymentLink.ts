/**
 * Whether a payment link may be followed: only `https:` links, or links on the configured Echo
 * host itself (a local Echo runs on plain http). Anything else (`javascript:`, `data:`, an http
 * page elsewhere) is refused.
 */
export function isFollowablePaymentLink(url: string, apiUrl: string): boolean {
  try {
    const link = new URL(url)
    return link.protocol === 'https:' || link.origin === new URL(apiUrl).origin
  } catch {
    return false
  }
}
