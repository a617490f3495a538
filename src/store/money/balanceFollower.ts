import type { Dispatch, UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'
import { signedIn, signedOut, signInFailed, tokenRefreshed } from '../authSlice'
import type { EchoRootState } from '../echoReducer'

/**
 * Why the balance is asked for again, in the action's `meta.cause` (Redux DevTools shows it): a billed
 * call ended, a checkout came back (its backoff's checks), new tokens ended an outage, or a developer
 * played a moment. Coming back
 * to the page is RTK Query's own refetch on `__rtkq/focused`.
 */
export type BalanceRefetchCause =
  | { by: 'billed-call' }
  | { by: 'checkout'; check: number }
  | { by: 'reconnected' }
  /** A moment played from Redux DevTools in development (`echoDevMoments.showLowBalance`). */
  | { by: 'dev-moment' }

/** The action that asks for the balance again (RTK Query's `invalidateTags(['Balance'])`), saying why. */
export function balanceAskedAgain(cause: BalanceRefetchCause): UnknownAction {
  return { ...echoApi.util.invalidateTags(['Balance']), meta: { cause } }
}

/** A query subscription: settles with its first answer. */
type Subscription = PromiseLike<unknown> & { unsubscribe(): void }

/**
 * Keeps the balance loaded while someone is signed in: subscribes to `getBalance` and
 * `getFreeBalance` once the signed-in page has painted, asks again (silently) when new tokens end
 * an outage, and on sign-out or a change of user drops them and resets the API cache, so one user's
 * data never shows for the next. Stopped, it holds no subscription and nothing it queued runs.
 */
export class BalanceFollower {
  readonly #dispatch: Dispatch
  readonly #getState: () => EchoRootState
  readonly #afterPaint: (run: () => void) => void
  #subscriptions: Subscription[] = []
  #userId: string | null = null
  #appId: string | undefined
  #running = false
  /** New tokens are arriving while the session was reconnecting: what failed meanwhile is asked for again. */
  #endsOutage = false

  constructor(dispatch: Dispatch, getState: () => EchoRootState, afterPaint: (run: () => void) => void) {
    this.#dispatch = dispatch
    this.#getState = getState
    this.#afterPaint = afterPaint
  }

  /** Follows the signed-in user of `appId` (again, after a stop). */
  start(appId: string | undefined): void {
    this.#running = true
    this.#appId = appId
    const { status, user } = this.#getState().echo.auth
    if (status === 'authenticated' && user !== null) this.#follow(user.id)
  }

  /** Drops the subscriptions (keeping the cache) and cancels a subscription still waiting for the paint. */
  stop(): void {
    this.#running = false
    for (const subscription of this.#subscriptions.splice(0)) subscription.unsubscribe()
  }

  /**
   * Called before an action reaches the reducers: a sign-in of another user (from another tab,
   * say) first drops the last user's balance and cache, so no state ever pairs the new user with
   * the old user's money.
   */
  prepare(action: UnknownAction): void {
    if (signedIn.match(action) && this.#userId !== null && action.payload.user.id !== this.#userId) this.#clear()
    this.#endsOutage = tokenRefreshed.match(action) && this.#getState().echo.auth.isReconnecting
  }

  /** Called after every action has reached the reducers. */
  follow(action: UnknownAction): void {
    if (signedIn.match(action)) {
      if (action.payload.user.id === this.#userId) return
      this.#clear()
      this.#follow(action.payload.user.id)
    } else if (signedOut.match(action) || signInFailed.match(action)) {
      this.#clear()
    } else if (this.#endsOutage) {
      this.#endsOutage = false
      this.#dispatch(balanceAskedAgain({ by: 'reconnected' }))
    }
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
    if (!this.#running || appId === undefined || this.#userId !== userId || this.#subscriptions.length > 0) return
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
