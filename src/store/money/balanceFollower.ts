import { isAnyOf, type Dispatch, type UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'
import { signedIn, signedOut, signInFailed, tokenRefreshed } from '../authSlice'
import type { EchoRootState } from '../echoReducer'
import type { EchoRun } from '../run'
import { balanceAskedAgain } from './balanceAskedAgain'

/** A query subscription: settles with its first answer. */
type Subscription = PromiseLike<unknown> & { unsubscribe(): void }

/**
 * Keeps the balance loaded while someone is signed in: subscribes to `getBalance` and
 * `getFreeBalance` once the signed-in page has painted, asks again (silently) when new tokens end
 * an outage, and on sign-out or a change of user drops them and resets the API cache, so one user's
 * data never shows for the next (the user's money in `echo` starts from nothing in the reducers
 * already, echoReducer.ts). Its listeners and subscriptions live as long as the run they started in.
 */
export class BalanceFollower {
  readonly #dispatch: Dispatch
  readonly #getState: () => EchoRootState
  readonly #afterPaint: (run: () => void) => void
  #subscriptions: Subscription[] = []
  #userId: string | null = null
  #appId: string | undefined
  #run: EchoRun | undefined

  constructor(dispatch: Dispatch, getState: () => EchoRootState, afterPaint: (run: () => void) => void) {
    this.#dispatch = dispatch
    this.#getState = getState
    this.#afterPaint = afterPaint
  }

  /** Follows the signed-in user of `appId` for `run`: at its stop the subscriptions go (the cache stays). */
  start(run: EchoRun, appId: string | undefined): void {
    this.#run = run
    this.#appId = appId
    run.onStop(() => {
      for (const subscription of this.#subscriptions.splice(0)) subscription.unsubscribe()
    })
    run.listen({
      actionCreator: signedIn,
      effect: ({ payload }) => {
        if (payload.user.id === this.#userId) return
        this.#clear()
        this.#follow(payload.user.id)
      },
    })
    run.listen({ matcher: isAnyOf(signedOut, signInFailed), effect: () => this.#clear() })
    run.listen({
      actionCreator: tokenRefreshed,
      effect: (_, { getOriginalState }) => {
        if (getOriginalState().echo.auth.isReconnecting) this.#dispatch(balanceAskedAgain({ by: 'reconnected' }))
      },
    })
    const { status, user } = this.#getState().echo.auth
    if (status === 'authenticated' && user !== null) this.#follow(user.id)
  }

  /**
   * The balance is needed now (a billed call made before it first came, whose cost is the credit
   * before and after it): subscribed at once rather than after the paint. Resolves once both first
   * answers are in, or failed.
   */
  async loadNow(): Promise<void> {
    const userId = this.#userId
    if (userId !== null) this.#subscribe(userId)
    await Promise.allSettled(this.#subscriptions)
  }

  #follow(userId: string): void {
    if (this.#appId === undefined) return
    this.#userId = userId
    // Subscribed once the signed-in page has been painted, so that paint never waits for the balance calls.
    this.#afterPaint(() => this.#subscribe(userId))
  }

  #subscribe(userId: string): void {
    const appId = this.#appId
    const stopped = this.#run?.signal.aborted ?? true
    if (stopped || appId === undefined || this.#userId !== userId || this.#subscriptions.length > 0) return
    // Coming back to the page (say, from a checkout in another tab) refetches the balance.
    const options = { subscriptionOptions: { refetchOnFocus: true } }
    this.#subscriptions = [
      this.#dispatch(
        echoApi.endpoints.getBalance.initiate(undefined, options) as unknown as UnknownAction,
      ) as unknown as Subscription,
      this.#dispatch(
        echoApi.endpoints.getFreeBalance.initiate(appId, options) as unknown as UnknownAction,
      ) as unknown as Subscription,
    ]
  }

  #clear(): void {
    if (this.#userId === null && this.#subscriptions.length === 0) return
    for (const subscription of this.#subscriptions.splice(0)) subscription.unsubscribe()
    this.#userId = null
    this.#dispatch(echoApi.util.resetApiState())
  }
}
