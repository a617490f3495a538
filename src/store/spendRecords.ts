import type { ResolvedEchoConfig } from '../config'

// What a user spent in an app, per local day, and their daily limit for it: kept in storage, so a
// reload keeps today's figure and every tab of the app reads the same.

/** The storage key of what `userId` spent in this app. */
export const spentKey = (config: ResolvedEchoConfig, userId: string): string =>
  `echo-rtk:spent:${config.apiUrl}:${config.appId}:${userId}`

/** The storage key of `userId`'s own daily limit for this app. */
export const dailyLimitKey = (config: ResolvedEchoConfig, userId: string): string =>
  `echo-rtk:daily-limit:${config.apiUrl}:${config.appId}:${userId}`

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

/** The stored daily limit: a number, `null` for none, or `undefined` when the user never chose. */
export function storedDailyLimit(text: string | null): number | null | undefined {
  const record = parse(text) as { limit?: unknown } | null
  if (record === null || !('limit' in record)) return undefined
  const { limit } = record
  return limit === null || (typeof limit === 'number' && Number.isFinite(limit) && limit > 0) ? limit : undefined
}

/** The record of the user's daily limit, for storage. */
export const dailyLimitRecord = (limit: number | null): string => JSON.stringify({ limit })

/** Dollars kept to a hundredth of a cent: a sum of charges does not drift into `0.30000000000000004`. */
export const roundUsd = (usd: number): number => Math.round(usd * 10_000) / 10_000

function parse(text: string | null): unknown {
  try {
    const value: unknown = JSON.parse(text ?? 'null')
    return typeof value === 'object' ? value : null
  } catch {
    return null
  }
}
