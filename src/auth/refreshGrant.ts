import { User } from 'oidc-client-ts'

import type { FetchFunction } from '../api/tokenProvider'
import type { ResolvedEchoConfig } from '../config'
import { ECHO_PATHS } from '../echoPaths'
import { withRefreshLife } from './storedUser'

/** A user whose refresh token can be spent. */
export type RefreshableUser = User & { refresh_token: string }

/**
 * What Echo's token endpoint made of a refresh-token grant (DESIGN §2): new tokens; a refusal
 * (a 4xx, or an answer of Echo's without an access token), after which the session is over; or
 * no answer from Echo at all (offline, a dropped or refused connection, a 5xx or 429, a page that
 * is not Echo's JSON such as a captive portal's), after which the session tries again.
 */
export type GrantAnswer = { kind: 'tokens'; user: User } | { kind: 'refused'; error: Error } | { kind: 'unreachable'; error: Error }

/** The answers of a token endpoint that say nothing about the refresh token: try again later. */
const TRY_AGAIN_STATUSES = new Set([408, 425, 429])

/**
 * The refresh-token grant for `user` at Echo's token endpoint, sent through `fetch` (the session's
 * own, so tests and the environment see it) and given up when `signal` aborts. Never throws: every
 * way it can end is a {@link GrantAnswer}. The new user keeps the profile (Echo issues no id token)
 * and, if Echo sends none, the refresh token; `now` is the clock the expiry is counted from.
 */
export async function requestRefreshGrant(
  fetch: FetchFunction,
  config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>,
  user: RefreshableUser,
  { now, signal }: { now: number; signal: AbortSignal },
): Promise<GrantAnswer> {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: user.refresh_token, client_id: config.appId })
  if (user.scope) form.set('scope', user.scope)
  let status: number
  let text: string
  try {
    // A URLSearchParams body is sent as application/x-www-form-urlencoded, a simple CORS request.
    const response = await fetch(`${config.apiUrl}${ECHO_PATHS.token}`, { method: 'POST', body: form, signal })
    status = response.status
    text = await response.text()
  } catch (error) {
    // The request never got a whole answer: offline, a reset, a page going away, or the late-answer limit.
    return { kind: 'unreachable', error: new Error(signal.aborted ? 'Echo did not answer the token request in time' : describe(error)) }
  }
  const answer = parseJsonObject(text)
  if (status >= 500 || TRY_AGAIN_STATUSES.has(status)) return { kind: 'unreachable', error: new Error(`Echo's token endpoint answered ${status}`) }
  if (status < 200 || status >= 300) return { kind: 'refused', error: new Error(refusalText(answer, status)) }
  if (answer === null) return { kind: 'unreachable', error: new Error(`The token endpoint's answer is not Echo's (status ${status}, not a JSON object)`) }
  if (typeof answer.access_token !== 'string' || answer.access_token === '') return { kind: 'refused', error: new Error('Silent renew did not yield a new access token') }
  return { kind: 'tokens', user: renewedUser(user, answer, now) }
}

/** The user after a refresh: Echo's new tokens, and what the answer leaves out carried over from `user`. */
function renewedUser(user: RefreshableUser, answer: Record<string, unknown>, now: number): User {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)
  const expiresIn = answer.expires_in
  const renewed = new User({
    access_token: answer.access_token as string,
    refresh_token: text(answer.refresh_token) ?? user.refresh_token,
    token_type: text(answer.token_type) ?? 'Bearer',
    profile: user.profile,
    session_state: user.session_state,
    ...optional('scope', text(answer.scope) ?? user.scope),
    // oidc-client-ts counts in whole seconds from the client's own clock, as here.
    ...(typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? { expires_at: Math.floor(now / 1000) + expiresIn } : {}),
  })
  return withRefreshLife(renewed, answer.refresh_token_expires_in, now)
}

function optional<Key extends string, Value>(key: Key, value: Value | undefined): { [K in Key]?: Value } {
  return (value === undefined ? {} : { [key]: value }) as { [K in Key]?: Value }
}

/** Echo's words for a refusal: `error_description`, else `error`, else the status. */
function refusalText(answer: Record<string, unknown> | null, status: number): string {
  const described = answer?.error_description ?? answer?.error
  return typeof described === 'string' && described !== '' ? described : `Echo refused the refresh (status ${status})`
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
