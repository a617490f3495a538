import type { CheckoutIn } from '../store/money/topUpWatch'
import type { PaymentLinkRequest } from '../api/wireTypes'
import type { EchoStore } from '../store/createEchoStore'
import { createPaymentLink } from '../store/thunks'

/** Options of `useEcho().openCheckout`. */
export interface OpenCheckoutOptions {
  /**
   * Where checkout opens: `new-tab` (the default: it closes itself once paid, and this tab shows the
   * new balance at once) or `this-tab` (the page comes back with the new balance).
   */
  checkoutIn?: CheckoutIn | undefined
  /** Opens the payment link yourself (a router, a test); echo-rtk then opens no tab. */
  navigate?: ((url: string) => void) | undefined
}

/** An empty tab for checkout, cut off from this page (`opener` cleared); `null` when the browser refuses. */
function openBlankTab(): Window | null {
  // jsdom and some embedded browsers answer `undefined` rather than `null`.
  const tab = window.open('', '_blank') ?? null
  if (tab !== null) tab.opener = null
  return tab
}

/**
 * Echo's checkout for `request`, from a click: a tab opened at once (so no popup blocker stops
 * it) and pointed at the payment link once it is made, the link marked so that checkout's return
 * tells the app's other tabs and closes that tab. Where the browser refuses a tab, checkout opens
 * in this one. Rejects as `createPaymentLink` does, the empty tab closed again.
 */
export async function openCheckout(
  store: EchoStore,
  request: PaymentLinkRequest,
  { checkoutIn = 'new-tab', navigate }: OpenCheckoutOptions = {},
): Promise<void> {
  // Opened now, while the click still counts as the user's: a tab opened after an await may be blocked.
  const checkoutTab = navigate === undefined && checkoutIn === 'new-tab' ? openBlankTab() : null
  try {
    const url = await store.dispatch(
      createPaymentLink(request, {
        checkoutIn: checkoutTab === null && navigate === undefined ? 'this-tab' : checkoutIn,
      }),
    )
    if (navigate !== undefined) navigate(url)
    else if (checkoutTab !== null) checkoutTab.location.replace(url)
    else window.location.assign(url)
  } catch (error) {
    checkoutTab?.close()
    throw error
  }
}
