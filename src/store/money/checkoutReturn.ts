import type { EchoEnvironment } from '../../auth/environment'

// A checkout's way back to the app: `successUrl` marked so the page it loads knows it is the return
// from a checkout that said it was paid. That mark is the only thing in this tab that starts waiting
// for a top-up (the other tabs learn it from this one's message).

/**
 * Where checkout opens: in a new tab (which closes itself when checkout returns to the app), or
 * in this tab (which the app then loads again).
 */
export type CheckoutIn = 'new-tab' | 'this-tab'

/** The query parameter that marks the app's page as the return from checkout: `tab` or `page`. @internal */
export const TOP_UP_RETURN = 'echo_top_up'

/** The query parameter that carries the credit before a checkout in this tab to the page it returns to. @internal */
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
    if (checkoutIn === 'this-tab' && Number.isFinite(creditBefore))
      url.searchParams.set(CREDIT_BEFORE, String(creditBefore))
    return url.href
  } catch {
    return successUrl
  }
}

/** What a checkout return in the address bar says. */
export interface CheckoutReturn {
  /** `tab` for a checkout tab the app opened, `page` for one in the app's own tab. */
  openedIn: 'tab' | 'page'
  /** The address without the mark. */
  cleaned: string
  /** The credit before a checkout in this tab, when it was known. */
  creditBefore: number | null
}

/** The checkout return `href` is marked as, if any. */
export function readCheckoutReturn(href: string): CheckoutReturn | null {
  const url = new URL(href)
  const mark = url.searchParams.get(TOP_UP_RETURN)
  if (mark !== 'tab' && mark !== 'page') return null
  const before = Number(url.searchParams.get(CREDIT_BEFORE) ?? Number.NaN)
  url.searchParams.delete(TOP_UP_RETURN)
  url.searchParams.delete(CREDIT_BEFORE)
  return { openedIn: mark, cleaned: url.href, creditBefore: Number.isFinite(before) ? before : null }
}

/**
 * When this page is checkout's return: takes the mark out of the address bar (so no later mount acts
 * on it again), calls `paid` with the credit before a checkout in this tab, and closes a checkout tab
 * the app opened, so the user goes on in the tab they bought from.
 */
export function takeCheckoutReturn(
  env: Pick<EchoEnvironment, 'location' | 'history' | 'closeWindow'>,
  paid: (creditBefore: number | null) => void,
): void {
  const checkout = readCheckoutReturn(env.location.href)
  if (checkout === null) return
  env.history.replaceState(env.history.state, '', checkout.cleaned)
  paid(checkout.creditBefore)
  if (checkout.openedIn === 'tab') env.closeWindow()
}
