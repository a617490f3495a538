// The fake checkout behind payment links: /checkout/{id} shows the amount and a Pay button; paying
// credits the ledger once and returns to the link's successUrl, as Stripe's hosted page would.

import { escapeHtml, page, redirect, sendHtml } from '../http/http.mjs'
import { toUsd } from './ledger.mjs'

/**
 * @param {{ ledger: import('./ledger.mjs').Ledger, creditDelayMs?: number }} options creditDelayMs: how long the credits take to reach the balance
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, path: string) => boolean} false when the path is not a checkout's
 */
export function createCheckoutHandler({ ledger, creditDelayMs = 0 }) {
  return function handleCheckout(req, res, path) {
    const match = /^\/checkout\/([\w-]+)$/.exec(path)
    if (!match) return false
    const id = match[1] ?? ''
    const link = ledger.findPaymentLink(id)
    if (!link) {
      sendHtml(
        res,
        404,
        page(
          'Checkout not found',
          '<h1>This payment link does not exist</h1><p>The dev server forgets its payment links when it stops.</p>',
        ),
      )
      return true
    }
    const amount = formatUsd(toUsd(link.amountMicros))
    if (req.method === 'POST') {
      if (ledger.payPaymentLink(id, creditDelayMs)) {
        redirect(res, link.successUrl)
      } else {
        sendHtml(
          res,
          409,
          page(
            'Already paid',
            `<h1>This link was already paid</h1><p><a href="${escapeHtml(link.successUrl)}">Back to the app</a></p>`,
          ),
        )
      }
      return true
    }
    if (req.method !== 'GET') {
      sendHtml(res, 405, page('Not allowed', '<h1>Method not allowed</h1>'))
      return true
    }
    const body =
      link.status === 'paid'
        ? `<h1>Paid</h1><p>${escapeHtml(link.description)}: ${amount}, already paid.</p><p><a href="${escapeHtml(link.successUrl)}">Back to the app</a></p>`
        : `<h1>Checkout (Echo dev server)</h1>
<p>${escapeHtml(link.description)}</p>
<p>Amount: <strong data-testid="amount">${amount}</strong></p>
<p class="note">No card is needed: paying here credits the test user's balance at once.</p>
<form method="post" action="/checkout/${escapeHtml(id)}">
  <button type="submit">Pay ${amount}</button>
</form>
<p><a href="${escapeHtml(link.successUrl)}">Cancel and go back</a></p>`
    sendHtml(res, 200, page(`Pay ${amount}`, body))
    return true
  }
}

/** @param {number} usd */
export function formatUsd(usd) {
  return `$${usd.toFixed(2)}`
}
