// The daily limit and its gate: the limit in force (the user's own for this app, else the app's), the one
// check every billed call passes before anything is sent, what a user may set, and the record that keeps
// their choice in storage for every tab. The state is moneySlice.ts's; the spend watch reads the record
// when a user signs in and hears other tabs change it.
import type { ResolvedEchoConfig } from '../../config'
import { EchoError } from '../../errors'
import type { EchoRootState } from '../echoReducer'

/** The highest daily limit a user can set, in US dollars: a figure above it is a slip of the keyboard. */
export const MAX_DAILY_LIMIT = 10_000

/** The daily limit in force: the user's own for this app, else the app's (`EchoConfig.dailyLimit`); `null` for none. */
export const selectDailyLimit = (state: EchoRootState): number | null => {
  const { userDailyLimit, appDailyLimit } = state.echo.money
  return userDailyLimit === undefined ? appDailyLimit : userDailyLimit
}

/** Today's spend has reached the daily limit: billed calls are refused until the limit is raised or the day ends. */
export const selectIsSpendLimitReached = (state: EchoRootState): boolean => {
  const limit = selectDailyLimit(state)
  const spent = state.echo.money.spentToday
  return limit !== null && spent !== null && spent >= limit
}

/** The gate: throws why a billed call is not sent when today's limit for this app is reached. */
export function refuseOverDailyLimit(state: EchoRootState): void {
  if (!selectIsSpendLimitReached(state)) return
  const spent = state.echo.money.spentToday ?? 0
  const limit = selectDailyLimit(state) ?? 0
  throw new EchoError({
    code: 'UNKNOWN_ERROR',
    reason: 'spend-limit',
    message:
      `Today's limit for this app is reached ($${spent.toFixed(2)} of $${limit.toFixed(2)}): ` +
      'raise it in your Echo account to keep going',
  })
}

/** What is wrong with `limit` as a user's daily limit (`bad-argument`), or `null` for an amount in range or none. */
export function dailyLimitProblem(limit: number | null): EchoError | null {
  if (limit === null || (typeof limit === 'number' && limit >= 0.01 && limit <= MAX_DAILY_LIMIT)) return null
  return new EchoError({
    code: 'UNKNOWN_ERROR',
    reason: 'bad-argument',
    message:
      `The daily limit must be an amount in US dollars from 0.01 to ${MAX_DAILY_LIMIT}, or null for none ` +
      `(got ${String(limit)})`,
  })
}

// The user's own limit, kept in storage per user and app, so a reload keeps it and every tab reads the same.

/** The storage key of `userId`'s own daily limit for this app. */
export const dailyLimitKey = (config: ResolvedEchoConfig, userId: string): string =>
  `echo-rtk:daily-limit:${config.apiUrl}:${config.appId}:${userId}`

/** The stored daily limit: a number, `null` for none, or `undefined` when the user never chose. */
export function storedDailyLimit(text: string | null): number | null | undefined {
  let record: unknown
  try {
    record = JSON.parse(text ?? 'null')
  } catch {
    return undefined
  }
  if (typeof record !== 'object' || record === null || !('limit' in record)) return undefined
  const { limit } = record
  return limit === null || (typeof limit === 'number' && Number.isFinite(limit) && limit > 0) ? limit : undefined
}

/** The record of the user's daily limit, for storage. */
export const dailyLimitRecord = (limit: number | null): string => JSON.stringify({ limit })
