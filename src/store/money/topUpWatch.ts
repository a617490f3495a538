import { isAnyOf, type Dispatch } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'
import type { EchoEnvironment } from '../../auth/environment'
import type { ResolvedEchoConfig } from '../../config'
import { signedOut, signInFailed } from '../authSlice'
import type { EchoRootState } from '../echoReducer'
import type { EchoRun } from '../run'
import { selectCredit } from '../selectors'
import { balanceAskedAgain } from './balanceAskedAgain'
import { topUpCredited, topUpLate, topUpWaiting } from './moneySlice'
import { roundUsd, SPENT_AT_OR_BELOW_USD } from './credit'

/** After checkout, the balance is asked again after these many seconds, then every 30 s. */
export const TOP_UP_CHECKS_S = [2, 4, 8, 15, 30]
/** A top-up whose credits have not arrived after this long is late (and still waited for). */
export const TOP_UP_LATE_MS = 2 * 60_000
/** After this long a top-up is no longer waited for: it stays late. */
const TOP_UP_GIVE_UP_MS = 15 * 60_000

/** What tabs say to each other about money: a checkout paid in one of them. */
const CHECKOUT_PAID = { type: 'checkout-paid' } as const

interface PendingTopUp {
  /** The credit the top-up must rise above; `null` when this page knew no figure from before. */
  creditBefore: number | null
  since: number
  /** What cancels the next check of the balance: `undefined` while none is armed (stopped), `null` once given up. */
  cancelCheck: (() => void) | undefined | null
  /** Which of `TOP_UP_CHECKS_S` the next check is. */
  round: number
}

/**
 * A top-up, confirmed for the user: entered only when a checkout said it was paid (this page is its
 * return, or another tab's message says one was), then the balance is asked on a backoff until it
 * rises (`waiting`), `late` after two minutes, `credited` with the amount when it arrives. Nothing
 * else (an outage that ends, a balance that rose for another reason) starts it. One per store, kept
 * by the store's runtime, listening for each run; stopped, it checks nothing and tells no tab, and a
 * top-up under way is checked again at the next start.
 */
export class TopUpWatch {
  readonly #dispatch: Dispatch
  readonly #getState: () => EchoRootState
  #env: EchoEnvironment | undefined
  #run: EchoRun | undefined
  #channel: BroadcastChannel | undefined
  #tookPageReturn = false
  #topUp: PendingTopUp | null = null

  constructor(dispatch: Dispatch, getState: () => EchoRootState) {
    this.#dispatch = dispatch
    this.#getState = getState
  }

  /**
   * Listens to the other tabs for `run` and, the first time, takes this page's checkout return (telling
   * the other tabs); a top-up waited for before a stop is checked again.
   */
  start(run: EchoRun, env: EchoEnvironment, config: ResolvedEchoConfig): void {
    this.#env = env
    this.#run = run
    run.onStop(() => {
      this.#channel = undefined
      if (this.#topUp !== null && this.#topUp.cancelCheck !== null) this.#topUp.cancelCheck = undefined
    })
    const channel = env.openChannel?.(`echo-rtk:money:${config.apiUrl}:${config.appId}`)
    if (channel !== undefined) {
      // Another tab's checkout is this tab's news only while its user is signed in here.
      const onMessage = ({ data }: MessageEvent<unknown>) =>
        (data as { type?: unknown } | null)?.type === CHECKOUT_PAID.type &&
        this.#getState().echo.auth.status === 'authenticated' &&
        this.paid()
      channel.addEventListener('message', onMessage)
      this.#channel = channel
      run.onStop(() => {
        channel.removeEventListener('message', onMessage)
        channel.close()
      })
    }
    run.listen({ matcher: isAnyOf(signedOut, signInFailed), effect: () => this.#clear() })
    run.listen({ matcher: echoApi.endpoints.getBalance.matchFulfilled, effect: () => this.#balanceAnswered() })
    if (!this.#tookPageReturn) {
      this.#tookPageReturn = true
      takeCheckoutReturn(env, (creditBefore) => {
        this.#channel?.postMessage(CHECKOUT_PAID)
        this.paid(creditBefore)
      })
    }
    if (this.#topUp !== null && this.#topUp.cancelCheck === undefined) this.#check()
  }

  /**
   * A checkout said it was paid (here or in another tab): the balance is asked on a backoff until it
   * rises above `creditBefore` (a checkout this page came back from says it), else the credit now.
   */
  paid(creditBefore?: number | null): void {
    this.#clear()
    const before = creditBefore ?? selectCredit(this.#getState())
    this.#topUp = { creditBefore: before, since: this.#now(), cancelCheck: undefined, round: 0 }
    this.#dispatch(topUpWaiting())
    this.#check()
  }

  /** A balance arrived: credited once it rises above the credit before the checkout. */
  #balanceAnswered(): void {
    if (this.#topUp === null) return
    const credit = selectCredit(this.#getState())
    if (credit === null) return
    const { creditBefore } = this.#topUp
    // A checkout this page came back to knows no credit from before: the first figure above nothing
    // is the one after (nothing at all means the credits have not arrived).
    if (credit <= (creditBefore ?? 0) + SPENT_AT_OR_BELOW_USD) return
    this.#clear()
    this.#dispatch(topUpCredited(creditBefore === null ? null : roundUsd(credit - creditBefore)))
  }

  #check(): void {
    const topUp = this.#topUp
    const run = this.#run
    if (topUp === null || run === undefined || run.signal.aborted) return
    this.#dispatch(balanceAskedAgain({ by: 'checkout', check: topUp.round + 1 }))
    const waited = this.#now() - topUp.since
    if (waited >= TOP_UP_LATE_MS) this.#dispatch(topUpLate())
    if (waited >= TOP_UP_GIVE_UP_MS) return void (topUp.cancelCheck = null)
    const seconds = TOP_UP_CHECKS_S[topUp.round] ?? 30
    topUp.round += 1
    topUp.cancelCheck = run.later(() => {
      topUp.cancelCheck = undefined
      this.#check()
    }, seconds * 1_000)
  }

  #clear(): void {
    this.#topUp?.cancelCheck?.()
    this.#topUp = null
  }

  #now(): number {
    return this.#env?.now() ?? Date.now()
  }
}

// A checkout's way back to the app: `successUrl` marked so the page it loads knows it is the return
// from a checkout that said it was paid. That mark is the only thing in this tab that starts waiting
// for a top-up (the other tabs learn it from this one's message).

/**
 * Where checkout opens: in a new tab (which closes itself when checkout returns to the app), or
 * in this tab (which the app then loads again).
 *
 * @inline
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
