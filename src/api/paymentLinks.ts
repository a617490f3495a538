import type { PaymentLinkResponse } from './wireTypes'

/**
 * A payment-link answer, checked: it must carry `paymentLink.url`, the one field a caller acts on.
 * @internal
 */
export function readPaymentLinkAnswer(answer: unknown): PaymentLinkResponse {
  const link = (answer as { paymentLink?: { url?: unknown } } | null)?.paymentLink
  if (typeof link?.url !== 'string' || link.url === '')
    throw new Error('Echo answered without a payment link URL (paymentLink.url)')
  return answer as PaymentLinkResponse
}

/**
 * Whether a payment link may be followed: only `https:` links, or links on the configured Echo
 * host itself (a local Echo runs on plain http). Anything else (`javascript:`, `data:`, an http
 * page elsewhere) is refused.
 * @internal
 */
export function isFollowablePaymentLink(url: string, apiUrl: string): boolean {
  try {
    const link = new URL(url)
    return link.protocol === 'https:' || link.origin === new URL(apiUrl).origin
  } catch {
    return false
  }
}
