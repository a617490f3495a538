import { http, HttpResponse, type HttpHandler } from 'msw'

import type { Balance, FreeTierBalance } from '../api/wireTypes'
import type { EchoEndpointName, EchoEndpoints } from './endpoints'
import { echoFixtures } from './fixtures'
import { failureOf, recorded, tokenAccepted, unauthorized, type EchoScenario, type MockEcho } from './mockEcho'

/** Echo's eight `/api/v1` calls, in the live server's shapes; 401 without an accepted token. @internal */
export function apiHandlers(echo: MockEcho, urls: EchoEndpoints): HttpHandler[] {
  /** An authorized call: recorded, failed when configured, 401 without an accepted token, else `answer`. */
  const answering = (name: EchoEndpointName, answer: (request: Request, body: unknown) => Response) =>
    recorded(
      echo,
      name,
      ({ token, body }, request) =>
        failureOf(echo, name) ?? (tokenAccepted(echo, token) ? answer(request, body) : unauthorized()),
    )

  return [
    http.get(
      urls.apps,
      answering('apps', () =>
        HttpResponse.json({ items: [echoFixtures.app], page: 0, page_size: 10, total_count: 1, has_next: false }),
      ),
    ),
    http.get(
      urls.app,
      answering('app', (request) =>
        request.url.endsWith(`/${echoFixtures.app.id}`)
          ? HttpResponse.json(echoFixtures.app)
          : HttpResponse.json({ message: 'App not found' }, { status: 404 }),
      ),
    ),
    http.get(
      urls.balance,
      answering('balance', () => {
        const paid = paidOf(echo.options)
        return HttpResponse.json({ totalPaid: paid, totalSpent: 0, balance: paid, currency: 'USD' } satisfies Balance)
      }),
    ),
    http.post(
      urls.freeBalance,
      answering('freeBalance', (_request, body) => {
        const freeLeft = freeLeftOf(echo.options)
        const { echoAppId = echoFixtures.app.id } = (body ?? {}) as { echoAppId?: string }
        // An app without a free tier, as Echo answers it: a pool of nothing, no pool id.
        if (freeLeft === null) return HttpResponse.json(noFreeTier(echoAppId))
        const freeTier: FreeTierBalance = {
          spendPoolBalance: echo.options.spendPool ?? echoFixtures.freeTierBalance.spendPoolBalance,
          userSpendInfo: {
            ...echoFixtures.freeTierBalance.userSpendInfo,
            echoAppId,
            amountSpent: 1 - freeLeft,
            amountLeft: freeLeft,
          },
        }
        return HttpResponse.json(freeTier)
      }),
    ),
    http.get(
      urls.supportedModels,
      answering('supportedModels', () => HttpResponse.json(echoFixtures.supportedModels)),
    ),
    http.post(
      urls.paymentLink,
      answering('paymentLink', (_request, body) => {
        const { amount } = (body ?? {}) as { amount?: unknown }
        if (typeof amount !== 'number' || amount < 1)
          return HttpResponse.json({ message: 'Invalid amount', errors: [{ path: ['amount'] }] }, { status: 400 })
        echo.paymentLinks += 1
        const id = `link-${echo.paymentLinks}`
        return HttpResponse.json({
          paymentLink: {
            id,
            url: echoFixtures.checkoutUrl.replace(/link-1$/, id),
            amount,
            currency: 'usd',
            status: 'created',
            created: 1_767_225_600,
          },
          payment: { id: `payment-${echo.paymentLinks}`, amount, status: 'pending' },
        })
      }),
    ),
    http.get(
      urls.user,
      answering('user', () => HttpResponse.json({ ...echoFixtures.account, ...echo.options.account })),
    ),
    http.post(
      urls.referral,
      answering('referral', () => HttpResponse.json({ success: true, message: 'Referral registered' })),
    ),
  ]
}

/** The paid balance the scenario answers now. */
function paidOf(scenario: EchoScenario): number {
  return scenario.outOfCredits ? 0 : (scenario.balance ?? echoFixtures.balance.balance)
}

/** What is left of the free tier now (`null`: the app has none). */
function freeLeftOf(scenario: EchoScenario): number | null {
  if (scenario.outOfCredits) return 0
  return scenario.freeTier === undefined ? echoFixtures.freeTierBalance.userSpendInfo.amountLeft : scenario.freeTier
}

/** Echo's free-tier answer for an app without one. */
function noFreeTier(echoAppId: string): FreeTierBalance {
  const { userId } = echoFixtures.freeTierBalance.userSpendInfo
  return {
    spendPoolBalance: 0,
    userSpendInfo: { userId, echoAppId, spendPoolId: null, amountSpent: 0, spendLimit: null, amountLeft: 0 },
  }
}
