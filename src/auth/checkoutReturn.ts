import { readTopUpReturn } from '../api/paymentLinks'
import type { EchoEnvironment } from './environment'

/**
 * When this page is checkout's return (the mark echo-rtk put on `successUrl`): takes the mark out
 * of the address bar, calls `paid` (the balance is stale here and in the other tabs), and closes a
 * checkout tab the app opened, so the user goes on in the tab they bought from.
 */
export function takeCheckoutReturn(env: EchoEnvironment, paid: () => void): void {
  const topUp = readTopUpReturn(env.location.href)
  if (topUp === null) return
  env.history.replaceState(env.history.state, '', topUp.cleaned)
  paid()
  if (topUp.openedIn === 'tab') env.closeWindow()
}
