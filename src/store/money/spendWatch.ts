import { isAnyOf, type Dispatch, type UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../../api/query/echoApi'
import type { EchoEnvironment } from '../../auth/environment'
import type { ResolvedEchoConfig } from '../../config'
import { signedIn, signedOut, signInFailed } from '../authSlice'
import type { EchoRootState } from '../echoReducer'
import type { EchoRun } from '../run'
import { charged, dailyLimitChosen, moneyLoaded, spentTodayChanged } from './moneySlice'
import { selectCredit } from '../selectors'
import { roundUsd } from './credit'
import { dailyLimitKey, dailyLimitRecord, storedDailyLimit } from './dailyLimit'

/** Billed calls that overlap, with the credit before the first: what they cost together is known once all ended. */
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
 * The user's spend, watched for them: what each answer cost (the credit before the billed calls and
 * after them, calls that overlapped counted as one batch), today's total per user and app in storage
 * (every tab, across reloads, from the local midnight), and the user's own daily limit, both kept in
 * storage by the records at the end of this file (the limit is enforced by the billed fetch). Kept by
 * the store's runtime, for each run; stopped, it writes nothing and arms no timer.
 */
export class SpendWatch {
  readonly #dispatch: Dispatch
  readonly #getState: () => EchoRootState
  #env: EchoEnvironment | undefined
  #config: ResolvedEchoConfig | undefined
  #run: EchoRun | undefined
  #userId: string | null = null
  #batch: Batch | null = null
  #stopListening: (() => void) | undefined
  #cancelMidnight: (() => void) | undefined

  constructor(dispatch: Dispatch, getState: () => EchoRootState) {
    this.#dispatch = dispatch
    this.#getState = getState
  }

  /**
   * Watches for `run` with this browser and config (a user signed in before a stop is watched again);
   * at its stop, nobody is watched.
   */
  start(run: EchoRun, env: EchoEnvironment, config: ResolvedEchoConfig): void {
    this.#run = run
    this.#env = env
    this.#config = config
    run.onStop(() => this.#forget())
    run.listen({
      actionCreator: signedIn,
      effect: ({ payload }) => {
        if (payload.user.id !== this.#userId) this.#load(payload.user.id)
      },
    })
    run.listen({ matcher: isAnyOf(signedOut, signInFailed), effect: () => this.#forget() })
    run.listen({
      matcher: isBalanceAnswer,
      effect: (action) => {
        if (this.#batch?.endedAt != null) this.#balanceAnswered(action, this.#batch)
      },
    })
    const user = this.#getState().echo.auth.user
    if (user !== null && this.#userId === null) this.#load(user.id)
  }

  /** A billed call is being sent. */
  callStarted(): void {
    // A call overlapping a batch still running, or waiting for its balance, joins it: their costs cannot be told apart.
    const batch = (this.#batch ??= {
      creditBefore: selectCredit(this.#getState()),
      calls: 0,
      running: 0,
      endedAt: null,
      paidAsked: null,
      freeTierAsked: null,
      paidAnswered: false,
      freeTierAnswered: false,
      refused: false,
    })
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

  /** Nobody to watch: timers and listeners stop. */
  #forget(): void {
    this.#userId = null
    this.#batch = null
    this.#stopListening?.()
    this.#stopListening = undefined
    this.#cancelMidnight?.()
    this.#cancelMidnight = undefined
  }

  #load(userId: string): void {
    this.#forget()
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
    this.#cancelMidnight = this.#run?.later(
      () => {
        this.#dispatch(spentTodayChanged(0))
        this.#armMidnight()
      },
      untilMidnight(this.#now()) + 1_000,
    )
  }

  /**
   * A balance request or answer after the batch ended. Only the answers to requests asked after it
   * show its cost (every Redux Toolkit has request ids; not every one stamps an answer with when it was asked).
   */
  #balanceAnswered(action: UnknownAction, batch: Batch): void {
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

  #now(): number {
    return this.#env?.now() ?? Date.now()
  }
}

const { getBalance, getFreeBalance } = echoApi.endpoints
/** A balance request asked or answered: what tells a batch's cost. */
const isBalanceAnswer = isAnyOf(
  getBalance.matchPending,
  getFreeBalance.matchPending,
  getBalance.matchFulfilled,
  getFreeBalance.matchFulfilled,
  getFreeBalance.matchRejected,
)

// What a user spent in an app, per local day: kept in storage, so a reload keeps today's figure and every
// tab of the app reads the same (their daily limit's record is dailyLimit.ts's).

/** The storage key of what `userId` spent in this app. */
export const spentKey = (config: ResolvedEchoConfig, userId: string): string =>
  `echo-rtk:spent:${config.apiUrl}:${config.appId}:${userId}`

/** The local calendar day of `nowMs`, as `YYYY-MM-DD`: a day's spend starts at the user's own midnight. */
export function localDay(nowMs: number): string {
  const date = new Date(nowMs)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`
}

/** Milliseconds from `nowMs` to the next local midnight. */
export function untilMidnight(nowMs: number): number {
  const next = new Date(nowMs)
  next.setHours(24, 0, 0, 0)
  return next.getTime() - nowMs
}

/** What the stored record says was spent on `day`: 0 for another day, or a record that is not one. */
export function spentOn(text: string | null, day: string): number {
  const record = parse(text) as { day?: unknown; amount?: unknown } | null
  return record?.day === day && typeof record.amount === 'number' && Number.isFinite(record.amount) ? record.amount : 0
}

/** The record of `amount` spent on `day`, for storage. */
export const spentRecord = (day: string, amount: number): string => JSON.stringify({ day, amount })

function parse(text: string | null): unknown {
  try {
    const value: unknown = JSON.parse(text ?? 'null')
    return typeof value === 'object' ? value : null
  } catch {
    return null
  }
}
