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
import { takeCheckoutReturn } from './checkoutReturn'
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
