// The in-memory ledger of the test user: paid credits, spending, the demo app's free tier (drawn
// before the paid balance, as Echo's router does), payment links and referral codes. Money is kept
// in whole micro-dollars so sums never drift; answers are in US dollars, as Echo's.

import { randomUUID } from 'node:crypto'

import { DEMO_APP_ID, DEMO_FREE_TIER, REFERRAL_CODE, TEST_USER } from '../fixtures.mjs'

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

/**
 * Where a charge was drawn from, so that a refund goes back there.
 * @typedef {object} Draw
 * @property {string} echoAppId the app whose free tier was drawn
 * @property {number} freeMicros taken from that free tier
 * @property {number} paidMicros taken from the paid balance
 */

/**
 * An app's free tier for the test user: a pool the app owner pays into, and how much of it the user may draw.
 * @typedef {object} FreeTier
 * @property {string} spendPoolId
 * @property {number} poolMicros what the owner paid into the pool
 * @property {number} limitMicros the user's spend limit
 * @property {number} spentMicros what the user has drawn
 */

/** Echo's router serves a call only while more than this ($0.0001) is left, free tier and paid balance together. */
export const MIN_CREDIT_MICROS = 100

export class Ledger {
  /** @type {number} */ #paidMicros
  #spentMicros = 0
  /** @type {Map<string, FreeTier>} only the demo app has one; another app draws the paid balance alone */
  #freeTiers = new Map([
    [
      DEMO_APP_ID,
      {
        spendPoolId: DEMO_FREE_TIER.spendPoolId,
        poolMicros: toMicros(DEMO_FREE_TIER.poolBalance),
        limitMicros: toMicros(DEMO_FREE_TIER.spendLimit),
        spentMicros: 0,
      },
    ],
  ])
  /** @type {Map<string, PaymentLinkRecord>} */
  #paymentLinks = new Map()
  /** @type {Set<string>} */
  #redeemedReferrals = new Set()

  /** @param {{ balance: number }} options the test user's starting balance in USD */
  constructor({ balance }) {
    this.#paidMicros = toMicros(balance)
  }

  /** The test user's paid balance, as `GET /api/v1/balance` answers it (negative after a call billed past zero). */
  balance() {
    return {
      totalPaid: toUsd(this.#paidMicros),
      totalSpent: toUsd(this.#spentMicros),
      balance: toUsd(this.#paidMicros - this.#spentMicros),
      currency: /** @type {const} */ ('USD'),
    }
  }

  /**
   * Bills a model call for `echoAppId` as Echo's router does: refused (undefined, nothing taken) unless
   * more than $0.0001 is left in the app's free tier and the paid balance together; otherwise billed in
   * full, the free tier first and the rest to the paid balance, even past zero.
   * @param {string} echoAppId
   * @param {number} micros
   * @returns {Draw | undefined}
   */
  charge(echoAppId, micros) {
    const tier = this.#freeTiers.get(echoAppId)
    const freeLeft = tier ? Math.max(tier.limitMicros - tier.spentMicros, 0) : 0
    if (freeLeft + this.#paidMicros - this.#spentMicros <= MIN_CREDIT_MICROS) return undefined
    const freeMicros = Math.min(micros, freeLeft)
    if (tier) tier.spentMicros += freeMicros
    this.#spentMicros += micros - freeMicros
    return { echoAppId, freeMicros, paidMicros: micros - freeMicros }
  }

  /**
   * Gives back part of a charge (a stream stopped before its end) where it came from, the paid balance first.
   * @param {Draw} draw
   * @param {number} micros at most what the draw took
   */
  refund(draw, micros) {
    const toPaid = Math.min(micros, draw.paidMicros)
    const toFree = Math.min(micros - toPaid, draw.freeMicros)
    this.#spentMicros -= toPaid
    const tier = this.#freeTiers.get(draw.echoAppId)
    // /dev/balance may have reset the free tier since the charge: never give back more than was drawn.
    if (tier) tier.spentMicros -= Math.min(toFree, tier.spentMicros)
  }

  /**
   * Sets the balance left to `usd` (the dev server's /dev/balance control), keeping what was spent.
   * @param {number} usd
   */
  setBalance(usd) {
    this.#paidMicros = this.#spentMicros + toMicros(usd)
  }

  /**
   * Sets what is left of an app's free tier to `usd` (the /dev/balance control), under its spend limit.
   * False (nothing changed) when the app has no free tier or `usd` is over the limit.
   * @param {string} echoAppId
   * @param {number} usd
   */
  setFreeTierLeft(echoAppId, usd) {
    const tier = this.#freeTiers.get(echoAppId)
    if (!tier || toMicros(usd) > tier.limitMicros) return false
    tier.spentMicros = tier.limitMicros - toMicros(usd)
    return true
  }

  /**
   * An app's free tier for the test user, as `POST /api/v1/balance/free` answers it: what was drawn, what
   * is left under the limit, and the pool after the draws. An app without a spend pool (any other id)
   * has nothing to draw, and Echo answers it with zeros and nulls rather than a 404.
   * @param {string} echoAppId
   */
  freeTier(echoAppId) {
    const tier = this.#freeTiers.get(echoAppId)
    if (!tier) {
      return {
        spendPoolBalance: 0,
        userSpendInfo: {
          userId: TEST_USER.id,
          echoAppId,
          spendPoolId: null,
          amountSpent: 0,
          spendLimit: null,
          amountLeft: 0,
        },
      }
    }
    return {
      spendPoolBalance: toUsd(tier.poolMicros - tier.spentMicros),
      userSpendInfo: {
        userId: TEST_USER.id,
        echoAppId,
        spendPoolId: tier.spendPoolId,
        amountSpent: toUsd(tier.spentMicros),
        spendLimit: toUsd(tier.limitMicros),
        amountLeft: toUsd(tier.limitMicros - tier.spentMicros),
      },
    }
  }

  /**
   * @param {{ amount: number, description: string, successUrl: string }} request amount in USD
   * @param {number} [nowSeconds]
   * @returns {PaymentLinkRecord}
   */
  createPaymentLink({ amount, description, successUrl }, nowSeconds = Math.floor(Date.now() / 1000)) {
    const link = {
      id: `plink_dev_${randomUUID().replaceAll('-', '')}`,
      amountMicros: toMicros(amount),
      description,
      successUrl,
      created: nowSeconds,
      status: /** @type {'active' | 'paid'} */ ('active'),
    }
    this.#paymentLinks.set(link.id, link)
    return link
  }

  /** @param {string} id */
  findPaymentLink(id) {
    return this.#paymentLinks.get(id)
  }

  /**
   * Pays a link once: credits its amount, now or `creditAfterMs` later. False when the link is unknown or already paid.
   * @param {string} id
   * @param {number} [creditAfterMs]
   */
  payPaymentLink(id, creditAfterMs = 0) {
    const link = this.#paymentLinks.get(id)
    if (!link || link.status !== 'active') return false
    link.status = 'paid'
    const credit = () => (this.#paidMicros += link.amountMicros)
    // A slow payment provider: paid now, the credits on the balance later.
    if (creditAfterMs > 0) setTimeout(credit, creditAfterMs).unref()
    else credit()
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
    if (this.#redeemedReferrals.has(echoAppId))
      return { success: false, message: 'A referral code was already applied for this app' }
    this.#redeemedReferrals.add(echoAppId)
    return { success: true, message: 'Referral code applied' }
  }
}
