import { createHmac } from 'node:crypto'

import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'

import { startDevServer, type RunningDevServer } from '../../dev-server/startDevServer.mjs'
import {
  anyNumber,
  anyString,
  anyUuid,
  APP_ORIGIN,
  authorize,
  authorizeUrl,
  bearer,
  CookieJar,
  exchangeCode,
  expressErrorPage,
  follow,
  jwtHeader,
  jwtPayload,
  letLoopbackThrough,
  makePkce,
  refresh,
  SCOPE,
  send,
  signIn,
  type TokenResponse,
} from './devServerClient'

// Echo's behaviour, the default: a code may be exchanged again, a rotated refresh token has 2 minutes of grace.
let dev: RunningDevServer

beforeAll(async () => {
  dev = await startDevServer({ port: 0, routerPort: 0, accessTtl: 120, autoLogin: true, streamDelayMs: 1 })
})
afterAll(() => dev.close())
beforeEach(letLoopbackThrough)

async function balanceStatus(server: RunningDevServer, token: string) {
  return (await fetch(`${server.apiUrl}/api/v1/balance`, { headers: bearer(token) })).status
}

function validateToken(server: RunningDevServer, token: string) {
  return fetch(`${server.apiUrl}/api/validate-jwt-token`, { method: 'POST', headers: { 'X-Echo-Token': token } })
}

function callRouter(server: RunningDevServer, token: string) {
  return fetch(`${server.routerUrl}/chat/completions`, { method: 'POST', headers: bearer(token), body: '{}' })
}

const PKCE_FAILED = { error: 'invalid_request', error_description: 'PKCE verification failed' }

describe('sign-in with auto-login (code + PKCE, headless)', () => {
  test('following redirects with a cookie jar ends at the redirect URI with a code and the state', async () => {
    const { back } = await authorize(dev)

    expect(back.origin + back.pathname).toBe(`${APP_ORIGIN}/callback`)
    expect(back.searchParams.get('code')).toMatch(/\S{20,}/)
    expect(back.searchParams.get('state')).toBe('state-1')
  })

  test('the code and its verifier buy tokens with Echo’s scope, the user and the app, and no id_token', async () => {
    const { back, pkce, redirectUri } = await authorize(dev)

    const response = await exchangeCode(dev, back.searchParams.get('code')!, redirectUri, pkce.verifier)
    const tokens = (await response.json()) as TokenResponse

    expect(response.status).toBe(200)
    expect(tokens).toEqual({
      access_token: anyString,
      token_type: 'Bearer',
      // Counted at answer time, as Echo does: a second less than the 120 s the token lives.
      expires_in: 119,
      refresh_token: anyString,
      refresh_token_expires_in: 2_592_000,
      scope: SCOPE,
      user: { id: dev.testUser.id, email: 'test@example.com', name: 'Test User' },
      echo_app: { id: dev.appId, name: 'echo-rtk demo', description: anyString },
    })
    expect(tokens).not.toHaveProperty('id_token')
  })

  test('a wrong code verifier is refused: PKCE verification failed', async () => {
    const { back, redirectUri } = await authorize(dev)

    const response = await exchangeCode(dev, back.searchParams.get('code')!, redirectUri, makePkce().verifier)

    expect(response.status).toBe(400)
    expect(await response.json()).toEqual(PKCE_FAILED)
  })

  test('PKCE is required', async () => {
    const jar = new CookieJar()
    const url = new URL(authorizeUrl(dev, { redirectUri: `${APP_ORIGIN}/callback`, challenge: 'x' }))
    url.searchParams.delete('code_challenge')
    url.searchParams.delete('code_challenge_method')

    const landed = await follow(jar, url.href, `${APP_ORIGIN}/callback`)

    expect(landed).toBeInstanceOf(URL)
    expect((landed as URL).searchParams.get('error')).toBe('invalid_request')
    expect((landed as URL).searchParams.get('code')).toBeNull()
  })
})

describe('access tokens in Echo’s shape', () => {
  test('an HS256 JWT for the app with Echo’s claims, no issuer, and exp from the access-token setting', async () => {
    const tokens = await signIn(dev)

    const claims = jwtPayload(tokens.access_token)
    expect(jwtHeader(tokens.access_token)).toEqual({ alg: 'HS256', typ: 'JWT' })
    expect(claims).toEqual({
      user_id: dev.testUser.id,
      app_id: dev.appId,
      scope: SCOPE,
      key_version: 1,
      session_id: anyUuid,
      sub: dev.testUser.id,
      aud: dev.appId,
      jti: anyString,
      iat: anyNumber,
      exp: anyNumber,
    })
    expect(Number(claims.exp) - Number(claims.iat)).toBe(120)
  })

  test('session_id names the grant: the same after a refresh, another for another sign-in', async () => {
    const tokens = await signIn(dev)
    const renewed = (await (await refresh(dev, tokens.refresh_token)).json()) as TokenResponse
    const other = await signIn(dev)

    const sessionOf = (token: string) => jwtPayload(token).session_id
    expect(sessionOf(renewed.access_token)).toBe(sessionOf(tokens.access_token))
    expect(sessionOf(other.access_token)).not.toBe(sessionOf(tokens.access_token))
  })

  test('a forged token is refused by the API, userinfo, token validation and the router', async () => {
    const { access_token: token } = await signIn(dev)
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const claims = jwtPayload(token)
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const signedWith = (secret: string, head: string, body: string) => {
      return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`
    }
    const forged = [
      `${header}.${encode({ ...claims, exp: Number(claims.exp) + 3600 })}.${signature}`,
      signedWith('not the server secret', header, payload),
      `${encode({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    ]

    for (const bad of forged) {
      const validated = await validateToken(dev, bad)
      expect(await balanceStatus(dev, bad)).toBe(401)
      expect((await fetch(`${dev.apiUrl}/api/oauth/userinfo`, { headers: bearer(bad) })).status).toBe(401)
      expect([validated.status, await validated.json()]).toEqual([401, { valid: false, error: 'Invalid token' }])
      expect((await callRouter(dev, bad)).status).toBe(401)
    }
    expect(await balanceStatus(dev, token)).toBe(200)
  })

  test('/api/validate-jwt-token answers as Echo does', async () => {
    const { access_token: token } = await signIn(dev)

    const response = await validateToken(dev, token)

    expect(await response.json()).toEqual({ valid: true, userId: dev.testUser.id, appId: dev.appId, scope: SCOPE })
  })

  test('the JWKS route still answers, with no secret in it', async () => {
    const response = await fetch(`${dev.apiUrl}/.well-known/jwks.json`)
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] }

    expect(response.status).toBe(200)
    expect(keys.every((key) => key.kty !== 'oct' && key.k === undefined && key.d === undefined)).toBe(true)
  })
})

describe('a reused authorization code, as Echo takes it (codeReplay, the default)', () => {
  test('a second exchange within the code’s life answers 200, and the first tokens keep working', async () => {
    const { back, pkce, redirectUri } = await authorize(dev)
    const code = back.searchParams.get('code')!
    const first = (await (await exchangeCode(dev, code, redirectUri, pkce.verifier)).json()) as TokenResponse

    const replayed = await exchangeCode(dev, code, redirectUri, pkce.verifier)
    const second = (await replayed.json()) as TokenResponse

    expect(replayed.status).toBe(200)
    expect(second).toMatchObject({
      token_type: 'Bearer',
      expires_in: 119,
      scope: SCOPE,
      refresh_token: anyString,
      echo_app: { id: dev.appId },
    })
    expect(jwtPayload(second.access_token).session_id).toBe(jwtPayload(first.access_token).session_id)
    expect(await balanceStatus(dev, second.access_token)).toBe(200)
    expect(await balanceStatus(dev, first.access_token)).toBe(200)
    expect((await refresh(dev, first.refresh_token)).status).toBe(200)
  })

  test('a replay with a wrong verifier is refused, PKCE verification failed, and revokes nothing', async () => {
    const { back, pkce, redirectUri } = await authorize(dev)
    const code = back.searchParams.get('code')!
    const first = (await (await exchangeCode(dev, code, redirectUri, pkce.verifier)).json()) as TokenResponse

    const wrong = await exchangeCode(dev, code, redirectUri, makePkce().verifier)

    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toEqual(PKCE_FAILED)
    expect(await balanceStatus(dev, first.access_token)).toBe(200)
    expect((await exchangeCode(dev, code, redirectUri, pkce.verifier)).status).toBe(200)
  })
})

describe('stricter than Echo: codeReplay and refreshGrace off', () => {
  let strict: RunningDevServer
  beforeAll(async () => {
    strict = await startDevServer({
      port: 0,
      routerPort: 0,
      accessTtl: 120,
      autoLogin: true,
      refreshGrace: false,
      codeReplay: false,
    })
  })
  afterAll(() => strict.close())

  test('a code works once: the second exchange fails and takes the first tokens with it', async () => {
    const { back, pkce, redirectUri } = await authorize(strict)
    const code = back.searchParams.get('code')!
    const first = (await (await exchangeCode(strict, code, redirectUri, pkce.verifier)).json()) as TokenResponse

    const second = await exchangeCode(strict, code, redirectUri, pkce.verifier)

    expect(second.status).toBe(400)
    expect(await second.json()).toEqual({ error: 'invalid_request', error_description: anyString })
    expect((await refresh(strict, first.refresh_token)).status).toBe(400)
    expect(await balanceStatus(strict, first.access_token)).toBe(401)
  })

  test('a used code with a wrong verifier: PKCE verification failed, and the grant stays', async () => {
    const { back, pkce, redirectUri } = await authorize(strict)
    const code = back.searchParams.get('code')!
    const first = (await (await exchangeCode(strict, code, redirectUri, pkce.verifier)).json()) as TokenResponse

    const wrong = await exchangeCode(strict, code, redirectUri, makePkce().verifier)

    expect(await wrong.json()).toEqual(PKCE_FAILED)
    expect(await balanceStatus(strict, first.access_token)).toBe(200)
  })

  test('presenting a rotated refresh token again fails and revokes the whole grant', async () => {
    const tokens = await signIn(strict)
    const renewed = (await (await refresh(strict, tokens.refresh_token)).json()) as TokenResponse

    const reused = await refresh(strict, tokens.refresh_token)

    expect(reused.status).toBe(400)
    expect(await reused.json()).toEqual({ error: 'invalid_request', error_description: anyString })
    expect((await refresh(strict, renewed.refresh_token)).status).toBe(400)
    expect(await balanceStatus(strict, renewed.access_token)).toBe(401)
  })
})

describe('redirect URIs', () => {
  test('a redirect URI without a path gets the code at its root, as Echo sends it: /?code=…&state=…', async () => {
    const { back, pkce } = await authorize(dev, APP_ORIGIN)

    expect(back.origin + back.pathname).toBe(`${APP_ORIGIN}/`)
    expect([...back.searchParams.keys()]).toEqual(['code', 'state'])
    expect((await exchangeCode(dev, back.searchParams.get('code')!, APP_ORIGIN, pkce.verifier)).status).toBe(200)
  })

  test.each([
    'http://localhost:3000/',
    'http://localhost:61234/auth/callback?x=1',
    'http://127.0.0.1:5174/cb',
    'http://localhost/',
  ])('any loopback URI is accepted for the demo app: %s', async (redirectUri) => {
    const { back } = await authorize(dev, redirectUri)

    expect(back.href.startsWith(redirectUri)).toBe(true)
    expect(back.searchParams.get('code')).toBeTruthy()
  })

  test.each(['https://localhost:3000/', 'http://evil.example/', 'http://localhost.evil.example:3000/'])(
    'a URI that is not http loopback is refused with an error page, not a redirect: %s',
    async (redirectUri) => {
      const response = await send(new CookieJar(), authorizeUrl(dev, { redirectUri, challenge: makePkce().challenge }))

      expect(response.status).toBe(400)
      expect(response.headers.get('location')).toBeNull()
      expect(await response.text()).toContain('redirect_uri')
    },
  )
})

describe('refresh tokens', () => {
  test('a refresh rotates the refresh token and gives a working access token', async () => {
    const tokens = await signIn(dev)

    const response = await refresh(dev, tokens.refresh_token)
    const renewed = (await response.json()) as TokenResponse

    expect(response.status).toBe(200)
    expect(renewed).toMatchObject({
      token_type: 'Bearer',
      expires_in: 119,
      scope: SCOPE,
      refresh_token_expires_in: 2_592_000,
      user: { id: dev.testUser.id },
      echo_app: { id: dev.appId },
    })
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token)
    expect(renewed.access_token).not.toBe(tokens.access_token)
    expect((await fetch(`${dev.apiUrl}/api/v1/balance`, { headers: bearer(renewed.access_token) })).status).toBe(200)
    expect((await refresh(dev, renewed.refresh_token)).status).toBe(200)
  })

  test("Echo's grace (refreshGrace, the default): a rotated token still works, nothing is revoked", async () => {
    const tokens = await signIn(dev)
    const renewed = (await (await refresh(dev, tokens.refresh_token)).json()) as TokenResponse

    const reused = await refresh(dev, tokens.refresh_token)
    const again = (await reused.json()) as TokenResponse

    expect(reused.status).toBe(200)
    expect(again.refresh_token).not.toBe(renewed.refresh_token)
    expect(await balanceStatus(dev, again.access_token)).toBe(200)
    expect(await balanceStatus(dev, renewed.access_token)).toBe(200)
    expect((await refresh(dev, again.refresh_token)).status).toBe(200)
  })
})

describe('userinfo', () => {
  test('answers the test user in Echo’s shape for a valid access token', async () => {
    const tokens = await signIn(dev)

    const response = await fetch(`${dev.apiUrl}/api/oauth/userinfo`, {
      headers: { ...bearer(tokens.access_token), Origin: APP_ORIGIN },
    })

    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    expect(await response.json()).toEqual({
      sub: dev.testUser.id,
      email: 'test@example.com',
      email_verified: true,
      name: 'Test User',
      preferred_username: 'test',
      given_name: 'Test',
      family_name: 'User',
      updated_at: anyNumber,
    })
  })

  test('refuses a missing or made-up token as Echo: 401 {"message":"Unauthorized"}, no WWW-Authenticate', async () => {
    const missing = await fetch(`${dev.apiUrl}/api/oauth/userinfo`, { headers: { Origin: APP_ORIGIN } })
    const madeUp = await fetch(`${dev.apiUrl}/api/oauth/userinfo`, { headers: bearer('not-a-token') })

    for (const response of [missing, madeUp]) {
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBeNull()
      expect(await response.text()).toBe('{"message":"Unauthorized"}')
    }
    expect(missing.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
  })
})

describe('CORS for browser apps on any origin', () => {
  test('a preflight to the token endpoint is answered and names Authorization', async () => {
    const response = await fetch(`${dev.apiUrl}/api/oauth/token`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:4321',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    })

    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:4321')
    expect(response.headers.get('access-control-allow-headers')?.split(', ')).toEqual(
      expect.arrayContaining(['Authorization', 'Content-Type']),
    )
  })

  test('a token response carries Access-Control-Allow-Origin for the calling origin', async () => {
    const { back, pkce, redirectUri } = await authorize(dev)

    const response = await fetch(`${dev.apiUrl}/api/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://localhost:4321' },
      body: new URLSearchParams({
        client_id: dev.appId,
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: pkce.verifier,
      }),
    })

    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:4321')
  })
})

describe('logout', () => {
  test('confirms itself and returns to the post-logout URI; the next sign-in asks to log in again', async () => {
    const { jar } = await authorize(dev)
    const postLogout = 'http://localhost:5173/signed-out'
    const query = new URLSearchParams({ client_id: dev.appId, post_logout_redirect_uri: postLogout, state: 'bye' })

    const confirmPage = await send(jar, `${dev.apiUrl}/api/oauth/logout?${query}`)
    const html = await confirmPage.text()
    // The page submits its form by script; a test (like a browser without scripts) submits it.
    const action = /action="([^"]+)"/.exec(html)?.[1]
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1]
    const back = await send(jar, new URL(action!, dev.apiUrl).href, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }),
    })

    expect(confirmPage.status).toBe(200)
    expect(html).toContain('.submit()')
    expect(back.status).toBe(303)
    expect(back.headers.get('location')).toBe(`${postLogout}?state=bye`)
  })
})

describe('the login and consent pages, without auto-login', () => {
  let manual: RunningDevServer
  beforeAll(async () => {
    manual = await startDevServer({ port: 0, routerPort: 0, autoLogin: false })
  })
  afterAll(() => manual.close())

  test('a person signs in with the test user’s email and password, then allows access', async () => {
    const jar = new CookieJar()
    const pkce = makePkce()
    const redirectUri = `${APP_ORIGIN}/callback`

    const loginPage = await follow(jar, authorizeUrl(manual, { redirectUri, challenge: pkce.challenge }), redirectUri)
    expect(loginPage).toBeInstanceOf(Response)
    const loginHtml = await (loginPage as Response).text()
    expect(loginHtml).toMatch(/<label for="email">Email<\/label>/)
    expect(loginHtml).toMatch(/<label for="password">Password<\/label>/)
    expect(loginHtml).toContain('<button type="submit">Sign in</button>')
    const loginAction = new URL(/action="([^"]+\/login)"/.exec(loginHtml)![1]!, manual.apiUrl).href

    const wrong = await send(jar, loginAction, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'test@example.com', password: 'nope' }),
    })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('role="alert"')

    const consentPage = await follow(jar, loginAction, redirectUri, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: manual.testUser.email, password: manual.testUser.password }),
    })
    expect(consentPage).toBeInstanceOf(Response)
    const consentHtml = await (consentPage as Response).text()
    expect(consentHtml).toContain('<button type="submit">Allow</button>')
    expect(consentHtml).toContain('llm:invoke')
    const confirmAction = new URL(/action="([^"]+\/confirm)"/.exec(consentHtml)![1]!, manual.apiUrl).href

    const back = await follow(jar, confirmAction, redirectUri, { method: 'POST' })
    expect(back).toBeInstanceOf(URL)
    const code = (back as URL).searchParams.get('code')!
    const tokens = (await (await exchangeCode(manual, code, redirectUri, pkce.verifier)).json()) as TokenResponse
    expect(tokens.scope).toBe(SCOPE)
    expect(tokens.refresh_token).toEqual(anyString)
  })

  test('Deny on the login page returns access_denied to the app', async () => {
    const jar = new CookieJar()
    const redirectUri = `${APP_ORIGIN}/callback`
    const loginPage = (await follow(
      jar,
      authorizeUrl(manual, { redirectUri, challenge: makePkce().challenge }),
      redirectUri,
    )) as Response
    const abortAction = new URL(/action="([^"]+\/abort)"/.exec(await loginPage.text())![1]!, manual.apiUrl).href

    const back = await follow(jar, abortAction, redirectUri, { method: 'POST' })

    expect((back as URL).searchParams.get('error')).toBe('access_denied')
  })
})

describe('access-token lifetime', () => {
  test('a token of a 1-second server stops working once it expires', async () => {
    // The clock held still, so a slow machine cannot let the second pass before the first call; then moved on.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Math.ceil(Date.now() / 1000) * 1000)
    let shortLived: RunningDevServer | undefined
    try {
      shortLived = await startDevServer({ port: 0, routerPort: 0, accessTtl: 1, autoLogin: true })
      const tokens = await signIn(shortLived)
      expect(tokens.expires_in).toBe(0)
      expect(
        (await fetch(`${shortLived.apiUrl}/api/v1/balance`, { headers: bearer(tokens.access_token) })).status,
      ).toBe(200)
      vi.setSystemTime(Date.now() + 2_000) // past its end: expiry is in whole seconds
      const status = (await fetch(`${shortLived.apiUrl}/api/v1/balance`, { headers: bearer(tokens.access_token) }))
        .status
      expect(status).toBe(401)
      const routed = await callRouter(shortLived, tokens.access_token)
      expect([routed.status, await routed.text()]).toEqual([401, expressErrorPage('Unauthorized')])
      const renewed = (await (await refresh(shortLived, tokens.refresh_token)).json()) as TokenResponse
      expect(
        (await fetch(`${shortLived.apiUrl}/api/v1/balance`, { headers: bearer(renewed.access_token) })).status,
      ).toBe(200)
    } finally {
      vi.useRealTimers()
      await shortLived?.close()
    }
  })
})

describe("an app id this dev server does not know (a real one from Echo's dashboard)", () => {
  const MINE = '11111111-2222-4333-8444-555555555555'
  let withMine: RunningDevServer
  beforeAll(async () => {
    withMine = await startDevServer({ port: 0, routerPort: 0, autoLogin: true, streamDelayMs: 1, appIds: [MINE] })
  })
  afterAll(() => withMine.close())

  const authorizeAs = (server: RunningDevServer, appId: string, redirectUri: string) => {
    const url = new URL(authorizeUrl(server, { redirectUri, challenge: makePkce().challenge }))
    url.searchParams.set('client_id', appId)
    return url
  }

  test('says which app ids it knows, how to add yours, and links back to the app', async () => {
    const unknown = '99999999-8888-4777-8666-555555555555'
    const redirectUri = `${APP_ORIGIN}/callback`
    const answer = await send(new CookieJar(), authorizeAs(dev, unknown, redirectUri).href)
    const text = await answer.text()
    expect(answer.status).toBe(400)
    expect(text).toContain('this app id is not known here')
    expect(text).toContain(`<code>${unknown}</code>`)
    expect(text).toContain(`<li><code>${dev.appId}</code> (the demo app)</li>`)
    expect(text).toContain(`npm run dev-server -- --app-id ${unknown}`)
    expect(text).toContain(`<a href="${APP_ORIGIN}/">Back to your app</a>`)
    expect(text).toContain('invalid_client')
  })

  test('started with --app-id, it signs in to that app, and its tokens are good for the API and the router', async () => {
    const redirectUri = `${APP_ORIGIN}/callback`
    const pkce = makePkce()
    const url = new URL(authorizeUrl(withMine, { redirectUri, challenge: pkce.challenge }))
    url.searchParams.set('client_id', MINE)
    const back = await follow(new CookieJar(), url.href, redirectUri)
    expect(back).toBeInstanceOf(URL)
    const code = (back as URL).searchParams.get('code')!
    const tokens = (await (
      await fetch(`${withMine.apiUrl}/api/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: MINE,
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: pkce.verifier,
        }),
      })
    ).json()) as TokenResponse
    expect(jwtPayload(tokens.access_token)).toMatchObject({ aud: MINE, app_id: MINE })
    expect(await balanceStatus(withMine, tokens.access_token)).toBe(200)
    // The demo app's sign-in still works beside it.
    expect((await authorize(withMine)).back.searchParams.get('code')).toMatch(/\S{20,}/)
  })
})
