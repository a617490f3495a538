// The in-memory ledger of the test user: paid credits, spending, the demo app's free tier, payment
// links and referral codes. Money is kept in whole micro-dollars so sums never drift; answers are
// in US dollars, as Echo's.

import { randomUUID } from 'node:crypto'

import { DEMO_APP_ID, DEMO_FREE_TIER, REFERRAL_CODE, TEST_USER } from './fixtures.mjs'

const MICROS_PER_USD = 1_000_000

/** @param {number} usd */
export const toMicros = (usd) => Math.round(usd * MICROS_PER_USD)
/** @param {number} micros */
export const toUsd = (micros) => micros / MICROS_PER_USD

/**
 * @typedef {object} PaymentLinkRecord
 * @property {string} id
 * @property {number} amountMicros
 * @property {string} description
 * @property {string} successUrl
 * @property {number} created epoch seconds
 * @property {'active' | 'paid'} status
 */

export class Ledger {
  /** @type {number} */ #paidMicros
  #spentMicros = 0
  /** @type {Map<string, PaymentLinkRecord>} */
  #paymentLinks = new Map()
  /** @type {Set<string>} */
  #redeemedReferrals = new Set()

  /** @param {{ balance: number }} options the test user's starting balance in USD */
  constructor({ balance }) {
    this.#paidMicros = toMicros(balance)
  }

  /** The test user's paid balance, as `GET /api/v1/balance` answers it. */
  balance() {
    return {
      totalPaid: toUsd(this.#paidMicros),
      totalSpent: toUsd(this.#spentMicros),
      balance: toUsd(this.#paidMicros - this.#spentMicros),
      currency: /** @type {const} */ ('USD'),
    }
  }

  /** What is left to spend, in micro-dollars. */
  availableMicros() {
    return this.#paidMicros - this.#spentMicros
  }

  /**
   * Takes `micros` from the balance if it covers them all; false (and nothing taken) otherwise.
   * @param {number} micros
   */
  tryCharge(micros) {
    if (micros > this.availableMicros()) return false
    this.#spentMicros += micros
    return true
  }

  /**
   * Gives back part of a charge (a stream stopped before its end).
   * @param {number} micros
   */
  refund(micros) {
    this.#spentMicros -= Math.min(micros, this.#spentMicros)
  }

  /**
   * Sets the balance left to `usd` (the dev server's /dev/balance control), keeping what was spent.
   * @param {number} usd
   */
  setBalance(usd) {
    this.#paidMicros = this.#spentMicros + toMicros(usd)
  }

  /**
   * The demo app's free tier for the test user, as `POST /api/v1/balance/free` answers it; undefined for another app.
   * @param {string} echoAppId
   */
  freeTier(echoAppId) {
    if (echoAppId !== DEMO_APP_ID) return undefined
    // The router bills the paid balance only (so the balance a person sees moves): the free tier is shown, never drawn.
    return {
      spendPoolBalance: DEMO_FREE_TIER.poolBalance,
      userSpendInfo: {
        userId: TEST_USER.id,
        echoAppId,
        spendPoolId: DEMO_FREE_TIER.spendPoolId,
        amountSpent: 0,
        spendLimit: DEMO_FREE_TIER.spendLimit,
        amountLeft: DEMO_FREE_TIER.spendLimit,
      },
    }
  }

  /**
   * @param {{ amount: number, description: string, successUrl: string }} request amount in USD
   * @param {number} [nowSeconds]
   * @returns {PaymentLinkRecord}
   */
  createPaymentLink({ amount, description, successUrl }, nowSeconds = Math.floor(Date.now() / 1000)) {
    const link = { id: `plink_dev_${randomUUID().replaceAll('-', '')}`, amountMicros: toMicros(amount), description, successUrl, created: nowSeconds, status: /** @type {'active' | 'paid'} */ ('active') }
    this.#paymentLinks.set(link.id, link)
    return link
  }

  /** @param {string} id */
  findPaymentLink(id) {
    return this.#paymentLinks.get(id)
  }

  /**
   * Pays a link once: credits its amount. False when the link is unknown or already paid.
   * @param {string} id
   */
  payPaymentLink(id) {
    const link = this.#paymentLinks.get(id)
    if (!link || link.status !== 'active') return false
    link.status = 'paid'
    this.#paidMicros += link.amountMicros
    return true
  }

  /**
   * Applies a referral code for an app, once.
   * @param {string} echoAppId
   * @param {string} code
   * @returns {{ success: boolean, message: string }}
   */
  redeemReferral(echoAppId, code) {
    if (code.trim().toUpperCase() !== REFERRAL_CODE) return { success: false, message: 'Invalid referral code' }
    if (this.#redeemedReferrals.has(echoAppId)) return { success: false, message: 'A referral code was already applied for this app' }
    this.#redeemedReferrals.add(echoAppId)
    return { success: true, message: 'Referral code applied' }
  }
}
