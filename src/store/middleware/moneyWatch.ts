import type { Dispatch, UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'
import type { EchoEnvironment } from '../../auth/environment'
import type { ResolvedEchoConfig } from '../../config'
import { EchoError } from '../../errors'
import { signedIn, signedOut, signInFailed } from '../authSlice'
import type { EchoRootState } from '../echoReducer'
import {
  charged,
  dailyLimitChosen,
  moneyLoaded,
  spentTodayChanged,
  topUpCredited,
  topUpLate,
  topUpWaiting,
} from '../moneySlice'
import { selectCredit, selectDailyLimit, SPENT_AT_OR_BELOW_USD } from '../selectors'
import {
  dailyLimitKey,
  dailyLimitRecord,
  localDay,
  roundUsd,
  spentKey,
  spentOn,
  spentRecord,
  storedDailyLimit,
  untilMidnight,
} from '../spendRecords'

/** After checkout, the balance is asked again after these many seconds, then every 30 s. */
export const TOP_UP_CHECKS_S = [2, 4, 8, 15, 30]
/** A top-up whose credits have not arrived after this long is late (and still waited for). */
export const TOP_UP_LATE_MS = 2 * 60_000
/** After this long a top-up is no longer waited for: it stays late. */
const TOP_UP_GIVE_UP_MS = 15 * 60_000

/** Billed calls that overlap, with the credit before the first: what they cost together is known once all have ended. */
interface Batch {
  creditBefore: number | null
  calls: number
  running: number
  /** When the last call ended: balance answers asked after it show the batch's cost. */
  endedAt: number | null
  /** The balance requests asked after the last call ended (RTK Query's request ids), and whether each answered. */
  paidAsked: string | null
  freeTierAsked: string | null
  paidAnswered: boolean
  freeTierAnswered: boolean
  /**
   * A call was refused for want of credit: it cost nothing, and the fall to nothing around it says
   * nothing of what the others cost.
   */
  refused: boolean
}

/**
 * The user's money, watched for them: what each answer cost (the credit before the billed calls
 * and after them, calls that overlapped counted as one batch), today's total per user and app in
 * storage (every tab, across reloads, from the local midnight), the daily limit, and a top-up
 * after checkout waited for until the credits arrive. Kept by the session middleware, one per store.
 */
export class MoneyWatch {
  readonly #dispatch: Dispatch
  readonly #getState: () => EchoRootState
  #env: EchoEnvironment | undefined
  #config: ResolvedEchoConfig | undefined
  #userId: string | null = null
  #batch: Batch | null = null
  #stopListening: (() => void) | undefined
  #midnight: unknown
  #topUp: { creditBefore: number | null; since: number; check: unknown } | null = null

  constructor(dispatch: Dispatch, getState: () => EchoRootState) {
    this.#dispatch = dispatch
    this.#getState = getState
  }

  /** The session starts (again) with this browser and config: a user signed in before a stop is watched again. */
  use(env: EchoEnvironment, config: ResolvedEchoConfig): void {
    this.#env = env
    this.#config = config
    const user = this.#getState().echo.auth.user
    if (user !== null && this.#userId === null) this.#load(user.id)
  }

  /** Called after every action has reached the reducers. */
  follow(action: UnknownAction): void {
    if (signedIn.match(action)) {
      if (action.payload.user.id !== this.#userId) this.#load(action.payload.user.id)
    } else if (signedOut.match(action) || signInFailed.match(action)) {
      this.stop()
    } else if (this.#batch?.endedAt != null || this.#topUp !== null) {
      this.#balanceAnswered(action)
    }
  }

  /**
   * Why a billed call may not be sent now (today's limit reached), or `null`: asked before the
   * call, so a refused call sends nothing.
   */
  refusal(): EchoError | null {
    const state = this.#getState()
    const limit = selectDailyLimit(state)
    const spent = state.echo.money.spentToday
    if (limit === null || spent === null || spent < limit) return null
    return new EchoError({
      code: 'UNKNOWN_ERROR',
      reason: 'spend-limit',
      message:
        `Today's limit for this app is reached ($${spent.toFixed(2)} of $${limit.toFixed(2)}): ` +
        'raise it in your Echo account to keep going',
    })
  }

  /** A billed call is being sent. */
  callStarted(): void {
    if (this.#batch === null || this.#batch.running === 0) {
      // Overlapping a batch still waiting for its balance: one batch (its cost cannot be told apart).
      const waiting = this.#batch?.endedAt != null ? this.#batch : null
      this.#batch = waiting ?? {
        creditBefore: selectCredit(this.#getState()),
        calls: 0,
        running: 0,
        endedAt: null,
        paidAsked: null,
        freeTierAsked: null,
        paidAnswered: false,
        freeTierAnswered: false,
        refused: false,
      }
    }
    const batch = this.#batch
    batch.calls += 1
    batch.running += 1
    batch.endedAt = null
  }

  /** A billed call was refused for want of credit (402): its batch's cost cannot be told. */
  callRefused(): void {
    if (this.#batch !== null) this.#batch.refused = true
  }

  /** A billed call's answer ended (read, streamed to its end, stopped or failed). */
  callEnded(): void {
    const batch = this.#batch
    if (batch === null || batch.running === 0) return
    batch.running -= 1
    if (batch.running > 0) return
    batch.endedAt = this.#now()
    batch.paidAsked = null
    batch.freeTierAsked = null
    batch.paidAnswered = false
    batch.freeTierAnswered = false
  }

  /** The user's own daily limit for this app (`null`: none), kept for them in this browser. */
  chooseDailyLimit(limit: number | null): void {
    if (this.#userId === null || this.#config === undefined) return
    this.#env?.storage.setItem(dailyLimitKey(this.#config, this.#userId), dailyLimitRecord(limit))
    this.#dispatch(dailyLimitChosen(limit))
  }

  /**
   * Checkout said it was paid (here or in another tab): the balance is asked on a backoff until it
   * rises above `creditBefore` (a checkout this page came back from says it), else the credit now.
   */
  checkoutPaid(creditBefore?: number | null): void {
    this.#clearTopUp()
    const before = creditBefore ?? selectCredit(this.#getState())
    this.#topUp = { creditBefore: before, since: this.#now(), check: undefined }
    this.#dispatch(topUpWaiting())
    this.#checkTopUp(0)
  }

  /** Nobody to watch: timers and listeners stop. */
  stop(): void {
    this.#userId = null
    this.#batch = null
    this.#clearTopUp()
    this.#stopListening?.()
    this.#stopListening = undefined
    this.#env?.clearTimeout(this.#midnight)
  }

  #load(userId: string): void {
    this.stop()
    const env = this.#env
    const config = this.#config
    if (env === undefined || config === undefined) return
    this.#userId = userId
    const spent = spentKey(config, userId)
    const limit = dailyLimitKey(config, userId)
    this.#dispatch(
      moneyLoaded({
        spentToday: spentOn(env.storage.getItem(spent), localDay(this.#now())),
        userDailyLimit: storedDailyLimit(env.storage.getItem(limit)),
        appDailyLimit: config.dailyLimit,
        lowBalanceAt: config.lowBalanceAt,
      }),
    )
    // Another tab's charge, or its user's new limit.
    this.#stopListening = env.onStorage((event) => {
      if (event.key === spent) this.#dispatch(spentTodayChanged(spentOn(event.newValue, localDay(this.#now()))))
      if (event.key === limit) this.#dispatch(dailyLimitChosen(storedDailyLimit(event.newValue) ?? null))
    })
    this.#armMidnight()
  }

  /** At the local midnight a new day starts from nothing spent. */
  #armMidnight(): void {
    const env = this.#env!
    this.#midnight = env.setTimeout(
      () => {
        this.#dispatch(spentTodayChanged(0))
        this.#armMidnight()
      },
      untilMidnight(this.#now()) + 1_000,
    )
  }

  #balanceAnswered(action: UnknownAction): void {
    const { getBalance, getFreeBalance } = echoApi.endpoints
    const batch = this.#batch
    // Only the answers to requests asked after the batch ended show its cost (every Redux Toolkit
    // has request ids; not every one stamps an answer with when it was asked).
    if (batch?.endedAt != null) {
      if (getBalance.matchPending(action)) batch.paidAsked = action.meta.requestId
      else if (getFreeBalance.matchPending(action)) batch.freeTierAsked = action.meta.requestId
      else if (getBalance.matchFulfilled(action) && action.meta.requestId === batch.paidAsked) batch.paidAnswered = true
      else if (
        (getFreeBalance.matchFulfilled(action) || getFreeBalance.matchRejected(action)) &&
        action.meta.requestId === batch.freeTierAsked
      )
        batch.freeTierAnswered = true
      if (batch.paidAnswered && batch.freeTierAnswered) this.#settle(batch)
    }
    if (getBalance.matchFulfilled(action) && this.#topUp !== null) this.#topUpAnswered(this.#topUp.creditBefore)
  }

  /** Both halves of the balance after the batch are in: what it cost, added to today's total. */
  #settle(batch: Batch): void {
    this.#batch = null
    const after = selectCredit(this.#getState())
    // No figure before, or credit that rose meanwhile (a top-up): nothing can be said of this batch.
    if (batch.creditBefore === null || after === null || after > batch.creditBefore || this.#userId === null) return
    if (batch.refused) return
    const amount = roundUsd(batch.creditBefore - after)
    const day = localDay(this.#now())
    const key = spentKey(this.#config!, this.#userId)
    const spentToday = roundUsd(spentOn(this.#env!.storage.getItem(key), day) + amount)
    this.#env!.storage.setItem(key, spentRecord(day, spentToday))
    this.#dispatch(charged({ charge: { amount, calls: batch.calls, at: this.#now() }, spentToday }))
  }

  #topUpAnswered(creditBefore: number | null): void {
    const credit = selectCredit(this.#getState())
    if (credit === null) return
    // A checkout this page came back to knows no credit from before: the first figure is the one after.
    if (creditBefore !== null && credit <= creditBefore + SPENT_AT_OR_BELOW_USD) return
    this.#clearTopUp()
    this.#dispatch(topUpCredited(creditBefore === null ? null : roundUsd(credit - creditBefore)))
  }

  #checkTopUp(index: number): void {
    const topUp = this.#topUp
    if (topUp === null) return
    this.#dispatch(echoApi.util.invalidateTags(['Balance']))
    const waited = this.#now() - topUp.since
    if (waited >= TOP_UP_LATE_MS) this.#dispatch(topUpLate())
    if (waited >= TOP_UP_GIVE_UP_MS) return void (topUp.check = undefined)
    const seconds = TOP_UP_CHECKS_S[index] ?? 30
    topUp.check = this.#env!.setTimeout(() => this.#checkTopUp(index + 1), seconds * 1_000)
  }

  #clearTopUp(): void {
    if (this.#topUp !== null) this.#env?.clearTimeout(this.#topUp.check)
    this.#topUp = null
  }

  #now(): number {
    return this.#env?.now() ?? Date.now()
  }
}
