// What the dev-server tests do as an OAuth client and API caller: a cookie jar, redirects followed
// by hand, the code + PKCE flow, token requests. Requests to the loopback server pass through msw.
import { createHash, randomBytes } from 'node:crypto'

import { http, passthrough } from 'msw'
import { expect } from 'vitest'

import type { RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { server } from '../support/server'

/** msw answers every request of a test file; the dev server's are let through to the real socket. */
export function letLoopbackThrough() {
  server.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()))
}

export const APP_ORIGIN = 'http://localhost:5173'
export const SCOPE = 'llm:invoke offline_access'

export interface TokenResponse {
  access_token: string
  token_type: string
  expires_in: number
  refresh_token: string
  refresh_token_expires_in: number
  scope: string
  user: { id: string; email: string; name: string }
  echo_app: { id: string; name: string; description: string }
  id_token?: string
}

/** Cookies by name, as a browser keeps them for the dev server's origin. */
export class CookieJar {
  private readonly cookies = new Map<string, string>()

  store(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

/** One request with the jar's cookies and no automatic redirects. */
export async function send(jar: CookieJar, url: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  const cookie = jar.header()
  if (cookie) headers.set('cookie', cookie)
  const response = await fetch(url, { ...init, headers, redirect: 'manual' })
  jar.store(response)
  return response
}

/**
 * Follows redirects (at most 12) until one leaves for `stopAt` (returned as a URL) or a page
 * answers (returned as the Response).
 */
export async function follow(
  jar: CookieJar,
  url: string,
  stopAt: string,
  init: RequestInit = {},
): Promise<URL | Response> {
  let next = url
  let request = init
  for (let hop = 0; hop < 12; hop += 1) {
    const response = await send(jar, next, request)
    const location = response.headers.get('location')
    if (response.status < 300 || response.status >= 400 || !location) return response
    next = new URL(location, next).href
    if (next.startsWith(stopAt)) return new URL(next)
    request = {}
  }
  throw new Error(`More than 12 redirects from ${url}`)
}

export interface Pkce {
  verifier: string
  challenge: string
}

export function makePkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

export function authorizeUrl(
  dev: RunningDevServer,
  {
    redirectUri,
    challenge,
    state = 'state-1',
    scope = SCOPE,
  }: { redirectUri: string; challenge: string; state?: string; scope?: string },
) {
  const query = new URLSearchParams({
    client_id: dev.appId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })
  return `${dev.apiUrl}/api/oauth/authorize?${query}`
}

/** Runs authorize with auto-login by following redirects; returns the redirect back to the app. */
export async function authorize(dev: RunningDevServer, redirectUri = `${APP_ORIGIN}/callback`, jar = new CookieJar()) {
  const pkce = makePkce()
  const landed = await follow(jar, authorizeUrl(dev, { redirectUri, challenge: pkce.challenge }), redirectUri)
  if (!(landed instanceof URL))
    throw new Error(`authorize ended on a page (${landed.status}), not at ${redirectUri}: ${await landed.text()}`)
  return { back: landed, pkce, redirectUri, jar }
}

export function tokenRequest(
  dev: RunningDevServer,
  params: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(`${dev.apiUrl}/api/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ client_id: dev.appId, ...params }),
  })
}

export function exchangeCode(dev: RunningDevServer, code: string, redirectUri: string, verifier: string) {
  return tokenRequest(dev, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  })
}

export function refresh(dev: RunningDevServer, refreshToken: string) {
  return tokenRequest(dev, { grant_type: 'refresh_token', refresh_token: refreshToken })
}

/** The whole headless sign-in: authorize with auto-login, then the code exchange. */
export async function signIn(dev: RunningDevServer): Promise<TokenResponse> {
  const { back, pkce, redirectUri } = await authorize(dev)
  const response = await exchangeCode(dev, back.searchParams.get('code') ?? '', redirectUri, pkce.verifier)
  if (response.status !== 200) throw new Error(`code exchange failed: ${response.status} ${await response.text()}`)
  return (await response.json()) as TokenResponse
}

export function bearer(token: string) {
  return { Authorization: `Bearer ${token}` }
}

export async function getBalance(dev: RunningDevServer, token: string) {
  const response = await fetch(`${dev.apiUrl}/api/v1/balance`, { headers: bearer(token) })
  return ((await response.json()) as { balance: number }).balance
}

export interface FreeTier {
  spendPoolBalance: number
  userSpendInfo: { amountSpent: number; spendLimit: number; amountLeft: number }
}

/** What `POST /api/v1/balance/free` answers for the demo app. */
export async function getFreeTier(dev: RunningDevServer, token: string) {
  const response = await fetch(`${dev.apiUrl}/api/v1/balance/free`, {
    method: 'POST',
    headers: { ...bearer(token), 'Content-Type': 'application/json' },
    body: JSON.stringify({ echoAppId: dev.appId }),
  })
  return (await response.json()) as FreeTier
}

/** The dev control (not part of Echo) that sets the paid balance left and, when given, the demo app's free tier left. */
export async function setBalance(dev: RunningDevServer, balance: number, freeTier?: number) {
  const response = await postDevBalance(dev, freeTier === undefined ? { balance } : { balance, freeTier })
  if (!response.ok) throw new Error(`setting the balance failed: ${response.status}`)
}

export function postDevBalance(dev: RunningDevServer, body: unknown) {
  return fetch(`${dev.apiUrl}/dev/balance`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/** The payload of a JWT, read without verifying (as a client reads `exp`). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>
}

/** The header of a JWT. */
export function jwtHeader(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>
}

/** What Echo's 401 and 402 pages are: Express's default error page for the status. */
export function expressErrorPage(status: 'Unauthorized' | 'Payment Required') {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Error</title>
</head>
<body>
<pre>${status}</pre>
</body>
</html>
`
}

// Asymmetric matchers typed as the values they stand for, so object literals stay typed.
export const anyString = expect.any(String) as unknown as string
export const anyNumber = expect.any(Number) as unknown as number
export const stringContaining = (text: string) => expect.stringContaining(text) as unknown as string
export const stringMatching = (pattern: RegExp) => expect.stringMatching(pattern) as unknown as string
export const anyUuid = stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
