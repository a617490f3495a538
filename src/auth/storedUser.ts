import type { ResolvedEchoConfig } from '../config'
import type { UserInfoClaims } from './echoUser'
import type { EchoEnvironment } from './environment'

/**
 * A signed-in user as kept in storage, in oidc-client-ts's own format (what its `User` writes with
 * `toStorageString()`), so sessions stored by its `UserManager`, by Echo's React SDK and by earlier
 * echo-rtk restore, and a sign-in stored here reads back there.
 */
export interface StoredUser {
  access_token: string
  refresh_token?: string | undefined
  token_type: string
  scope?: string | undefined
  /** The userinfo claims; echo-rtk also notes there when the refresh token stops working. */
  profile: UserInfoClaims
  /** When the access token expires, epoch seconds. */
  expires_at?: number | undefined
  session_state?: string | null | undefined
  id_token?: string | undefined
}

/**
 * Where the user is kept for this app: oidc-client-ts's own key (`oidc.user:<authority>:<client_id>`).
 */
export function storedUserKey(config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>): string {
  return `oidc.user:${config.apiUrl}:${config.appId}`
}

/**
 * The user in `text` (the storage format), or `null` when it is not one this session may use: not
 * JSON, no access token, no profile subject (a sign-in stopped between the code exchange and the
 * profile), or a refresh token that is not text. Never throws: the text comes from storage or from
 * another tab, and either may hold anything.
 */
export function userFromStorageString(text: unknown): StoredUser | null {
  if (typeof text !== 'string') return null
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return null
  }
  if (!isRecord(data) || !isText(data.access_token) || !isRecord(data.profile) || !isText(data.profile.sub)) return null
  if (data.refresh_token != null && typeof data.refresh_token !== 'string') return null
  const { access_token, refresh_token, token_type, scope, profile, expires_at, session_state, id_token } = data
  return {
    access_token,
    ...(typeof refresh_token === 'string' ? { refresh_token } : {}),
    token_type: typeof token_type === 'string' ? token_type : 'Bearer',
    ...(typeof scope === 'string' ? { scope } : {}),
    profile: profile as UserInfoClaims,
    ...(typeof expires_at === 'number' ? { expires_at } : {}),
    ...(typeof session_state === 'string' ? { session_state } : {}),
    ...(typeof id_token === 'string' ? { id_token } : {}),
  }
}

/** `user` in the storage format, its fields in oidc-client-ts's order. */
export function toStorageString({
  id_token,
  session_state,
  access_token,
  refresh_token,
  token_type,
  scope,
  profile,
  expires_at,
}: StoredUser): string {
  return JSON.stringify({
    id_token,
    session_state,
    access_token,
    refresh_token,
    token_type,
    scope,
    profile,
    expires_at,
  })
}

/** The user stored at `key`, or `null` when there is none this session may use. */
export function readStoredUser(storage: Storage, key: string): StoredUser | null {
  return userFromStorageString(storage.getItem(key))
}

export function storeUser(storage: Storage, key: string, user: StoredUser): void {
  storage.setItem(key, toStorageString(user))
}

/** When the user's access token expires, epoch milliseconds; an unreadable expiry counts as long past (0). */
export function expiresAtMs(user: StoredUser): number {
  const seconds: unknown = user.expires_at
  const ms = typeof seconds === 'number' ? seconds * 1000 : Number.NaN
  return Number.isFinite(ms) ? ms : 0
}

/**
 * Where the session keeps when the refresh token stops working: a claim of the profile, because the
 * storage format (kept for sessions stored by earlier versions) holds only its fixed fields and the
 * profile, and a hand-over between tabs carries that same format.
 */
const REFRESH_EXPIRES_AT_CLAIM = 'echo_rtk_refresh_expires_at'

/**
 * `user` with the life Echo gave its refresh token (`refresh_token_expires_in`, seconds from `now`), when it gave
 * one.
 */
export function withRefreshLife(user: StoredUser, expiresInSeconds: unknown, now: number): StoredUser {
  if (typeof expiresInSeconds !== 'number' || !(expiresInSeconds > 0) || !Number.isFinite(expiresInSeconds)) return user
  return { ...user, profile: { ...user.profile, [REFRESH_EXPIRES_AT_CLAIM]: now + expiresInSeconds * 1000 } }
}

/** When the user's refresh token stops working (epoch ms), as Echo said; `undefined` when it did not say. */
export function refreshExpiresAtMs(user: StoredUser): number | undefined {
  const at: unknown = user.profile[REFRESH_EXPIRES_AT_CLAIM]
  return typeof at === 'number' && Number.isFinite(at) ? at : undefined
}

/** Whether `candidate` holds other, and no older, tokens than `than`. */
export function isNewer(candidate: StoredUser, than: StoredUser | null): boolean {
  return than === null || (candidate.access_token !== than.access_token && expiresAtMs(candidate) >= expiresAtMs(than))
}

/** The user whose tokens expire last: the newest a tab knows, from storage or from another tab. */
export function newestUser(users: (StoredUser | null)[]): StoredUser | null {
  let newest: StoredUser | null = null
  for (const user of users)
    if (user !== null && (newest === null || expiresAtMs(user) > expiresAtMs(newest))) newest = user
  return newest
}

/**
 * Whether a sign-in answer in the address bar is this app's: only if its `state` is one this app
 * stored when it left for Echo (oidc-client-ts keeps it at `oidc.<state>`).
 */
export function isOwnSignInState(storage: Storage, state: string, appId: string): boolean {
  return stateOf(storage.getItem(`oidc.${state}`))?.client_id === appId
}

/** oidc-client-ts's request type of a sign-in in a popup window, kept with its state. */
export const POPUP_REQUEST_TYPE = 'si:p'

/** Whether the sign-in of `state` was started in a popup window (its state says so). */
export function isPopupSignInState(storage: Storage, state: string): boolean {
  return stateOf(storage.getItem(`oidc.${state}`))?.request_type === POPUP_REQUEST_TYPE
}

/** How long a sign-in may take before its state in storage is stale: oidc-client-ts's limit, 15 minutes. */
const SIGN_IN_STATE_LIFE_S = 15 * 60

/**
 * Removes the sign-in states (`oidc.<state>`, each with its PKCE verifier) this app left in
 * `storage` more than 15 minutes ago (oidc-client-ts's limit for a sign-in). A younger one may be a
 * sign-in under way in another tab or provider of this page, and another app's states are its own
 * business: neither is touched.
 */
export function removeSignInStates(storage: Storage, appId: string, nowMs: number): void {
  const keys: string[] = []
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index)
    if (key !== null && key.startsWith('oidc.') && !key.startsWith('oidc.user:')) keys.push(key)
  }
  for (const key of keys) {
    const state = stateOf(storage.getItem(key))
    // Another sign-in's state (a live one in another tab or provider, or another app's) is never touched.
    const stale = typeof state?.created === 'number' && state.created <= nowMs / 1000 - SIGN_IN_STATE_LIFE_S
    if (stale && state?.client_id === appId) storage.removeItem(key)
  }
}

function stateOf(text: string | null): Record<string, unknown> | null {
  try {
    const state: unknown = JSON.parse(text ?? 'null')
    return isRecord(state) ? state : null
  } catch {
    return null
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
export function takeStoredUser(
  env: Pick<EchoEnvironment, 'storage' | 'logWarning'>,
  config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>,
): StoredUser | null {
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
function warnOfOtherSessions(
  env: Pick<EchoEnvironment, 'storage' | 'logWarning'>,
  config: Pick<ResolvedEchoConfig, 'apiUrl' | 'appId'>,
): void {
  // This app's own key was just removed: every user key left is another app's.
  const others: string[] = []
  for (let index = 0; index < env.storage.length; index += 1) {
    const key = env.storage.key(index)
    if (key?.startsWith('oidc.user:')) others.push(key.slice('oidc.user:'.length))
  }
  if (others.length === 0) return
  env.logWarning(
    `echo-rtk: nobody is signed in to app ${config.appId} at ${config.apiUrl}, but this storage holds a session for ` +
      `${others.join(', ')}. If that is this app, its config's appId or apiUrl differs from the one it signed in with`,
  )
}
