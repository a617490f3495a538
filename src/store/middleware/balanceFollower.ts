import type { Dispatch, UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'
import { signedIn, signedOut, signInFailed } from '../authSlice'

interface Subscription {
  unsubscribe(): void
}

/**
 * Keeps the balance loaded while someone is signed in: subscribes to `getBalance` and
 * `getFreeBalance` at sign-in, and on sign-out or a change of user drops them and resets the API
 * cache, so one user's data never shows for the next.
 */
export class BalanceFollower {
  readonly #dispatch: Dispatch
  readonly #afterPaint: (run: () => void) => void
  #subscriptions: Subscription[] = []
  #userId: string | null = null

  constructor(dispatch: Dispatch, afterPaint: (run: () => void) => void) {
    this.#dispatch = dispatch
    this.#afterPaint = afterPaint
  }

  /**
   * Called before an action reaches the reducers: a sign-in of another user (from another tab,
   * say) first drops the last user's balance and cache, so no state ever pairs the new user with
   * the old user's money.
   */
  prepare(action: UnknownAction): void {
    if (signedIn.match(action) && this.#userId !== null && action.payload.user.id !== this.#userId) this.#clear()
  }

  /** Called after every action has reached the reducers. */
  follow(action: UnknownAction, appId: string | undefined): void {
    if (signedIn.match(action)) {
      if (action.payload.user.id === this.#userId) return
      this.#clear()
      if (appId === undefined) return
      const userId = (this.#userId = action.payload.user.id)
      // Subscribed once the signed-in page has been painted, so that paint never waits for the balance calls.
      this.#afterPaint(() => {
        if (this.#userId !== userId || this.#subscriptions.length > 0) return
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
      })
    } else if (signedOut.match(action) || signInFailed.match(action)) {
      this.#clear()
    }
  }

  /** The session was reset: nobody to follow, and an empty API cache. */
  reset(): void {
    for (const subscription of this.#subscriptions.splice(0)) subscription.unsubscribe()
    this.#userId = null
    this.#dispatch(echoApi.util.resetApiState())
  }

  #clear(): void {
    if (this.#userId === null && this.#subscriptions.length === 0) return
    for (const subscription of this.#subscriptions.splice(0)) subscription.unsubscribe()
    this.#userId = null
    this.#dispatch(echoApi.util.resetApiState())
  }
}
