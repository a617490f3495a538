// The credit arithmetic: the money in Echo's answers, read safely (a field missing or odd is `null`, never NaN),
// and what of it the router can still draw.
import type { Balance, FreeTierBalance } from '../../api/wireTypes'

/**
 * Credit at or below this many US dollars is spent: Echo's router serves a call while the user has
 * more than $0.0001 of paid balance or free tier, so a 402 can leave up to that much on the books.
 */
export const SPENT_AT_OR_BELOW_USD = 0.0001

/** A US-dollar amount from a server answer, or `null` when the field is missing or not a finite number. */
function usdOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** The paid balance in US dollars, or `null` when it is not known (no answer, or an odd one). */
export function paidBalanceOf(balance: Balance | null): number | null {
  return usdOf((balance as Partial<Balance> | null)?.balance)
}

/**
 * Whether the app has a free tier: a spend pool. Echo answers an app without one as one with a
 * zero pool (`spendPoolId: null`, `amountLeft: 0`), which is no free tier to show.
 */
export function hasFreeTier(freeTier: FreeTierBalance | null): boolean {
  const poolId: unknown = (freeTier as Partial<FreeTierBalance> | null)?.userSpendInfo?.spendPoolId
  return typeof poolId === 'string' && poolId !== ''
}

/**
 * What is left of the free tier in US dollars, never below 0 (the wire's `amountLeft` can be
 * negative), or `null` when it is not known.
 */
export function freeTierLeftOf(freeTier: FreeTierBalance | null): number | null {
  const left = usdOf((freeTier as Partial<FreeTierBalance> | null)?.userSpendInfo?.amountLeft)
  return left === null ? null : Math.max(left, 0)
}

/** Whether a paid balance shows credit: more than what Echo's router counts as spent. */
export function showsPaidCredit(balance: Balance | null): boolean {
  return (paidBalanceOf(balance) ?? 0) > SPENT_AT_OR_BELOW_USD
}

/**
 * What of the free tier the router can still draw, in US dollars: the user's share left, under
 * what is left in the app's pool (a spent pool serves nobody); `null` when it is not known.
 */
export function freeCreditOf(freeTier: FreeTierBalance | null): number | null {
  const left = freeTierLeftOf(freeTier)
  const pool = usdOf((freeTier as Partial<FreeTierBalance> | null)?.spendPoolBalance) ?? Infinity
  return left === null ? null : Math.min(left, Math.max(pool, 0))
}

/** Whether a free tier shows credit the router can still draw: more than what it counts as spent. */
export function showsFreeCredit(freeTier: FreeTierBalance | null): boolean {
  return (freeCreditOf(freeTier) ?? 0) > SPENT_AT_OR_BELOW_USD
}

/** Dollars kept to a hundredth of a cent: a sum of charges does not drift into `0.30000000000000004`. */
export const roundUsd = (usd: number): number => Math.round(usd * 10_000) / 10_000
