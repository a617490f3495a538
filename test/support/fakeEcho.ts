import { createHash } from 'node:crypto'

import { http, HttpResponse } from 'msw'

import { server } from './server'

export const ECHO = 'https://echo.test'
export const APP_ID = 'app-123'
export const APP_URL = 'http://localhost:3000'

interface PendingCode {
  challenge: string
  clientId: string
  redirectUri: string
  used: boolean
}

export interface FakeEchoOptions {
  /** Access-token lifetime in seconds. */
  accessTtl?: number
  userinfo?: Record<string, unknown>
}

/**
 * A fake Echo for msw: the OAuth endpoints (PKCE really checked, codes single-use, refresh tokens
 * rotated on every use), userinfo, and the balance endpoints. It counts what it is asked.
 */
export function fakeEcho({ accessTtl = 900, userinfo = { sub: 'user-1', email: 'ada@example.com', name: 'Ada Lovelace', preferred_username: 'ada' } }: FakeEchoOptions = {}) {
  const codes = new Map<string, PendingCode>()
  const accessTokens = new Map<string, number>() // token -> expiry (epoch ms)
  let liveRefreshToken: string | null = null
  let issued = 0
  const counts = { codeExchanges: 0, refreshes: 0, failedRefreshes: 0, userinfo: 0, balance: 0, freeBalance: 0, paymentLinks: 0 }
  /** When each refresh reached the token endpoint (Date.now(), so fake clocks count). */
  const refreshedAt: number[] = []
  let balance = 12.5
  let refreshFails = false

  const issueTokens = () => {
    issued += 1
    const access = `access-${issued}`
    accessTokens.set(access, Date.now() + accessTtl * 1000)
    liveRefreshToken = `refresh-${issued}`
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: accessTtl,
      refresh_token: liveRefreshToken,
      refresh_token_expires_in: 2_592_000,
      scope: 'llm:invoke offline_access',
    }
  }
  const bearerIsValid = (request: Request) => {
    const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? ''
    const expiry = accessTokens.get(token)
    return expiry !== undefined && expiry > Date.now()
  }
  const unauthorized = () => HttpResponse.json({ message: 'Unauthorized' }, { status: 401 })

  server.use(
    http.post(`${ECHO}/api/oauth/token`, async ({ request }) => {
      const form = new URLSearchParams(await request.text())
      if (form.get('grant_type') === 'authorization_code') {
        counts.codeExchanges += 1
        const pending = codes.get(form.get('code') ?? '')
        const verifier = form.get('code_verifier') ?? ''
        const challenge = createHash('sha256').update(verifier).digest('base64url')
        if (!pending || pending.used || pending.challenge !== challenge || pending.clientId !== form.get('client_id') || pending.redirectUri !== form.get('redirect_uri')) {
          return HttpResponse.json({ error: 'invalid_request', error_description: 'Invalid authorization code' }, { status: 400 })
        }
        pending.used = true
        return HttpResponse.json(issueTokens())
      }
      if (form.get('grant_type') === 'refresh_token') {
        counts.refreshes += 1
        refreshedAt.push(Date.now())
        if (refreshFails || form.get('refresh_token') !== liveRefreshToken) {
          counts.failedRefreshes += 1
          return HttpResponse.json({ error: 'invalid_request', error_description: 'Invalid refresh token' }, { status: 400 })
        }
        return HttpResponse.json(issueTokens())
      }
      return HttpResponse.json({ error: 'unsupported_grant_type' }, { status: 400 })
    }),
    http.get(`${ECHO}/api/oauth/userinfo`, ({ request }) => {
      counts.userinfo += 1
      return bearerIsValid(request) ? HttpResponse.json(userinfo) : unauthorized()
    }),
    http.get(`${ECHO}/api/v1/balance`, ({ request }) => {
      counts.balance += 1
      return bearerIsValid(request) ? HttpResponse.json({ totalPaid: balance, totalSpent: 0, balance, currency: 'USD' }) : unauthorized()
    }),
    http.post(`${ECHO}/api/v1/balance/free`, async ({ request }) => {
      counts.freeBalance += 1
      if (!bearerIsValid(request)) return unauthorized()
      const { echoAppId } = (await request.json()) as { echoAppId: string }
      return HttpResponse.json({
        spendPoolBalance: 5,
        userSpendInfo: { userId: 'user-1', echoAppId, spendPoolId: 'pool-1', amountSpent: 6, spendLimit: 5, amountLeft: -1 },
      })
    }),
    http.post(`${ECHO}/api/v1/stripe/payment-link`, async ({ request }) => {
      counts.paymentLinks += 1
      if (!bearerIsValid(request)) return unauthorized()
      const { amount } = (await request.json()) as { amount: number }
      const id = `link-${counts.paymentLinks}`
      return HttpResponse.json({
        paymentLink: { id, url: `https://checkout.echo.test/${id}`, amount, currency: 'usd', status: 'created', created: 1 },
        payment: { id: `payment-${counts.paymentLinks}` },
      })
    }),
  )

  return {
    counts,
    refreshedAt,
    /** What Echo's authorize page does for a signed-in user who consents: the redirect back, with a code. */
    authorize(authorizeUrl: string): string {
      const params = new URL(authorizeUrl).searchParams
      if (params.get('code_challenge_method') !== 'S256') throw new Error('PKCE S256 was not used')
      const code = `code-${codes.size + 1}`
      codes.set(code, {
        challenge: params.get('code_challenge') ?? '',
        clientId: params.get('client_id') ?? '',
        redirectUri: params.get('redirect_uri') ?? '',
        used: false,
      })
      const back = new URL(params.get('redirect_uri')!)
      back.searchParams.set('code', code)
      back.searchParams.set('state', params.get('state') ?? '')
      return back.href
    },
    /** Tokens issued so far that still work. */
    isValidAccessToken: (token: string) => (accessTokens.get(token) ?? 0) > Date.now(),
    setBalance(next: number) {
      balance = next
    },
    failRefreshes() {
      refreshFails = true
    },
  }
}
