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

/**
 * Where checkout opens: in a new tab (which closes itself when checkout returns to the app), or
 * in this tab (which the app then loads again).
 */
export type CheckoutIn = 'new-tab' | 'this-tab'

/** The query parameter that marks the app's page as the return from checkout: `tab` or `page`. @internal */
export const TOP_UP_RETURN = 'echo_top_up'

/** The query parameter that carries the credit before a checkout in this tab back to the page it returns to. @internal */
export const CREDIT_BEFORE = 'echo_credit_before'

/**
 * `successUrl` marked as the return from a checkout opened `checkoutIn`, so the page it loads
 * knows to tell the app's other tabs (and, in a tab the app opened for it, to close itself). A
 * checkout in this tab also carries the credit before it (`creditBefore`, when known): the page it
 * comes back to knows no figure of its own to tell the credits' arrival by.
 * @internal
 */
export function markTopUpReturn(successUrl: string, checkoutIn: CheckoutIn, creditBefore?: number | null): string {
  try {
    const url = new URL(successUrl)
    url.searchParams.set(TOP_UP_RETURN, checkoutIn === 'new-tab' ? 'tab' : 'page')
    if (checkoutIn === 'this-tab' && typeof creditBefore === 'number' && Number.isFinite(creditBefore))
      url.searchParams.set(CREDIT_BEFORE, String(creditBefore))
    return url.href
  } catch {
    return successUrl
  }
}
