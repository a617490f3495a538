import { User } from 'oidc-client-ts'

import type { ResolvedEchoConfig } from '../config'
import type { EchoEnvironment } from './environment'
import { storedUserKey } from './storedUserKey'

/**
 * The user in `text` (oidc-client-ts's storage format), or `null` when it is not one this session
 * may use: not JSON, no access token, no profile subject (a sign-in stopped between the code
 * exchange and the profile), or a refresh token that is not text. Never throws: the text comes
 * from storage or from another tab, and either may hold anything.
 */
export function userFromStorageString(text: unknown): User | null {
  if (typeof text !== 'string') return null
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return null
  }
  if (!isRecord(data) || !isText(data.access_token) || !isRecord(data.profile) || !isText(data.profile.sub)) return null
  if (data.refresh_token != null && typeof data.refresh_token !== 'string') return null
  return User.fromStorageString(text)
}

/** The user stored at `key`, or `null` when there is none this session may use. */
export function readStoredUser(storage: Storage, key: string): User | null {
  return userFromStorageString(storage.getItem(key))
}

/** Stores `user` at `key` in oidc-client-ts's own format, so its `UserManager` (and older echo-rtk) read it too. */
export function storeUser(storage: Storage, key: string, user: User): void {
  storage.setItem(key, user.toStorageString())
}

/** When the user's access token expires, epoch milliseconds; an unreadable expiry counts as long past (0). */
export function expiresAtMs(user: User): number {
  const seconds: unknown = user.expires_at
  const ms = typeof seconds === 'number' ? seconds * 1000 : Number.NaN
  return Number.isFinite(ms) ? ms : 0
}

/**
 * Where the session keeps when the refresh token stops working: a claim of the profile, because
 * oidc-client-ts's storage format (kept for sessions stored by earlier versions) holds only its
 * fixed fields and the profile, and a hand-over between tabs carries that same format.
 */
const REFRESH_EXPIRES_AT_CLAIM = 'echo_rtk_refresh_expires_at'

/** Records on `user` the life Echo gave its refresh token (`refresh_token_expires_in`, seconds from `now`), when it gave one. */
export function withRefreshLife<T extends User>(user: T, expiresInSeconds: unknown, now: number): T {
  if (typeof expiresInSeconds === 'number' && expiresInSeconds > 0 && Number.isFinite(expiresInSeconds)) {
    user.profile = { ...user.profile, [REFRESH_EXPIRES_AT_CLAIM]: now + expiresInSeconds * 1000 }
  }
  return user
}

/** When the user's refresh token stops working (epoch ms), as Echo said; `undefined` when it did not say. */
export function refreshExpiresAtMs(user: User): number | undefined {
  const at: unknown = user.profile[REFRESH_EXPIRES_AT_CLAIM]
  return typeof at === 'number' && Number.isFinite(at) ? at : undefined
}

/** Whether `candidate` holds other, and no older, tokens than `than`. */
export function isNewer(candidate: User, than: User | null): boolean {
  return than === null || (candidate.access_token !== than.access_token && expiresAtMs(candidate) >= expiresAtMs(than))
}

/** The user whose tokens expire last: the newest a tab knows, from storage or from another tab. */
export function newestUser(users: (User | null)[]): User | null {
  let newest: User | null = null
  for (const user of users) if (user !== null && (newest === null || expiresAtMs(user) > expiresAtMs(newest))) newest = user
  return newest
}

/**
 * Whether a sign-in answer in the address bar is this app's: only if its `state` is one this app
 * stored when it left for Echo (oidc-client-ts keeps it at `oidc.<state>`).
 */
export function isOwnSignInState(storage: Storage, state: string, appId: string): boolean {
  return signInStateClientId(storage.getItem(`oidc.${state}`)) === appId
}

/**
 * Removes the sign-in states (`oidc.<state>`, each with its PKCE verifier) this app left in
 * `storage`: a session that ended has no sign-in of its own in flight worth keeping.
 */
export function removeSignInStates(storage: Storage, appId: string): void {
  const keys: string[] = []
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index)
    if (key !== null && key.startsWith('oidc.') && !key.startsWith('oidc.user:')) keys.push(key)
  }
  for (const key of keys) if (signInStateClientId(storage.getItem(key)) === appId) storage.removeItem(key)
}

function signInStateClientId(text: string | null): unknown {
  try {
    const state: unknown = JSON.parse(text ?? 'null')
    return isRecord(state) ? state.client_id : undefined
  } catch {
    return undefined
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

/**
 * The user stored for this app at start-up, or `null`: a stored value that is no usable user
 * (unreadable, or a sign-in that stopped before its profile) is removed, and in development a
 * session stored for another app is pointed out.
 */
export function takeStoredUser(env: Pick<EchoEnvironment, 'storage' | 'logWarning'>, config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>): User | null {
  const key = storedUserKey(config)
  const stored = readStoredUser(env.storage, key)
  if (stored !== null) return stored
  env.storage.removeItem(key)
  // Bundlers replace NODE_ENV, and drop the warning from production builds (Redux Toolkit and
  // react-redux, in the same bundle, read it the same way).
  if (process.env.NODE_ENV !== 'production') warnOfOtherSessions(env, config)
  return null
}

/**
 * Points out a session stored for another app or Echo while nobody is signed in to this one: a
 * setup mistake (a test seeding the wrong config, an appId that changed), not a signed-out user.
 */
function warnOfOtherSessions(env: Pick<EchoEnvironment, 'storage' | 'logWarning'>, config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>): void {
  // This app's own key was just removed: every user key left is another app's.
  const others: string[] = []
  for (let index = 0; index < env.storage.length; index += 1) {
    const key = env.storage.key(index)
    if (key?.startsWith('oidc.user:')) others.push(key.slice('oidc.user:'.length))
  }
  if (others.length === 0) return
  env.logWarning(
    `echo-rtk: nobody is signed in to app ${config.appId} at ${config.apiUrl}, but this storage holds a session for ${others.join(', ')}. If that is this app, its config's appId or apiUrl differs from the one it signed in with`,
  )
}
