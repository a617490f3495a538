import { http, HttpResponse, type HttpHandler } from 'msw'

import { allowingOrigin } from './cors'
import type { EchoEndpoints } from './endpoints'
import { echoFixtures } from './fixtures'
import { failureOf, recorded, tokenAccepted, unauthorized, userinfoOf, type MockEcho } from './mockEcho'

/**
 * Echo's OAuth endpoints: authorize (PKCE S256, answered with the redirect back and a code, as for
 * a user who is signed in to Echo and consents), the token endpoint (each code once, for the client
 * and redirect URI it was issued to; then refresh grants with the latest refresh token only, each
 * grant issuing the next `echoFixtures.tokens.issued(n)` pair), and userinfo.
 * @internal
 */
export function oauthHandlers(echo: MockEcho, urls: EchoEndpoints): HttpHandler[] {
  const issue = () => {
    echo.issued += 1
    const { accessToken, refreshToken } = echoFixtures.tokens.issued(echo.issued)
    const expiresIn = echo.options.expiresInSeconds ?? 900
    echo.accessTokenExpiry.set(accessToken, Date.now() + expiresIn * 1000)
    echo.liveRefreshToken = refreshToken
    return HttpResponse.json({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: expiresIn,
      refresh_token: refreshToken,
      refresh_token_expires_in: 2_592_000,
      scope: 'llm:invoke offline_access',
    })
  }
  const refused = (description: string) =>
    HttpResponse.json({ error: 'invalid_request', error_description: description }, { status: 400 })

  const authorize = (request: Request) => {
    const params = new URL(request.url).searchParams
    const redirectUri = params.get('redirect_uri')
    const challenge = params.get('code_challenge')
    if (redirectUri === null || challenge === null || params.get('code_challenge_method') !== 'S256')
      return refused('PKCE (S256) and a redirect_uri are required')
    const code = `test-code-${echo.codes.size + 1}`
    echo.codes.set(code, { challenge, clientId: params.get('client_id') ?? '', redirectUri })
    const back = new URL(redirectUri)
    back.searchParams.set('code', code)
    back.searchParams.set('state', params.get('state') ?? '')
    return new HttpResponse(null, { status: 302, headers: { Location: back.href } })
  }

  return [
    http.get(urls.authorize, ({ request }) => allowingOrigin(request, authorize(request))),
    http.post(
      urls.token,
      recorded(echo, 'token', async ({ body }) => {
        const form = body as Record<string, string | undefined>
        const failure = failureOf(echo, 'token')
        if (failure !== undefined) return failure
        if (form.grant_type === 'refresh_token') {
          // Echo rotates refresh tokens: one that was used (or replaced by a newer sign-in) is refused.
          return echo.options.refuseRefresh || form.refresh_token !== echo.liveRefreshToken
            ? refused('Invalid refresh token')
            : issue()
        }
        if (form.grant_type !== 'authorization_code')
          return HttpResponse.json({ error: 'unsupported_grant_type' }, { status: 400 })
        const pending = echo.codes.get(form.code ?? '')
        echo.codes.delete(form.code ?? '')
        if (
          pending === undefined ||
          pending.clientId !== form.client_id ||
          pending.redirectUri !== form.redirect_uri ||
          pending.challenge !== (await s256(form.code_verifier ?? ''))
        ) {
          return refused('Invalid authorization code')
        }
        return issue()
      }),
    ),
    http.get(
      urls.userinfo,
      recorded(
        echo,
        'userinfo',
        ({ token }) =>
          failureOf(echo, 'userinfo') ??
          (tokenAccepted(echo, token) ? HttpResponse.json(userinfoOf(echo)) : unauthorized()),
      ),
    ),
  ]
}

/** PKCE's S256 of a code verifier: base64url of its SHA-256. */
async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)))
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
