// Types for ledger.mjs, for the tests that bill the ledger directly.

/** Echo's router serves a call only while more than this ($0.0001) is left, free tier and paid balance together. */
export declare const MIN_CREDIT_MICROS: 100

export declare function toMicros(usd: number): number
export declare function toUsd(micros: number): number

/** Where a charge was drawn from, so that a refund goes back there. */
export interface Draw {
  echoAppId: string
  freeMicros: number
  paidMicros: number
}

/** `GET /api/v1/balance`, in USD. */
export interface LedgerBalance {
  totalPaid: number
  totalSpent: number
  balance: number
  currency: 'USD'
}

/** `POST /api/v1/balance/free`, in USD. */
export interface LedgerFreeTier {
  spendPoolBalance: number
  userSpendInfo: { userId: string; echoAppId: string; spendPoolId: string; amountSpent: number; spendLimit: number; amountLeft: number }
}

export interface PaymentLinkRecord {
  id: string
  amountMicros: number
  description: string
  successUrl: string
  created: number
  status: 'active' | 'paid'
}

export declare class Ledger {
  /** `balance`: the test user's starting balance in USD. */
  constructor(options: { balance: number })
  balance(): LedgerBalance
  /** Bills a call for an app: its free tier first, then the paid balance; undefined (nothing taken) when refused. */
  charge(echoAppId: string, micros: number): Draw | undefined
  /** Gives back part of a charge where it came from, the paid balance first. */
  refund(draw: Draw, micros: number): void
  setBalance(usd: number): void
  /** False (nothing changed) when the app has no free tier or `usd` is over its spend limit. */
  setFreeTierLeft(echoAppId: string, usd: number): boolean
  freeTier(echoAppId: string): LedgerFreeTier | undefined
  createPaymentLink(request: { amount: number; description: string; successUrl: string }, nowSeconds?: number): PaymentLinkRecord
  findPaymentLink(id: string): PaymentLinkRecord | undefined
  payPaymentLink(id: string): boolean
  redeemReferral(echoAppId: string, code: string): { success: boolean; message: string }
}
