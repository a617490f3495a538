import { User } from 'oidc-client-ts'

/** The user oidc-client-ts keeps at `key`, or `null`; a stored value that cannot be read is removed. */
export function readStoredUser(storage: Storage, key: string): User | null {
  const text = storage.getItem(key)
  if (text === null) return null
  try {
    return User.fromStorageString(text)
  } catch {
    storage.removeItem(key)
    return null
  }
}

/**
 * Whether the stored user finished signing in: oidc-client-ts stores the user as soon as the code
 * is exchanged, before the session has read the profile from userinfo and stored it again.
 */
export function hasProfile(user: User): boolean {
  return typeof user.profile?.sub === 'string' && user.profile.sub !== ''
}

/** When the user's access token expires, epoch milliseconds. */
export function expiresAtMs(user: User): number {
  return (user.expires_at ?? 0) * 1000
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
  try {
    const stored = JSON.parse(storage.getItem(`oidc.${state}`) ?? 'null') as { client_id?: unknown } | null
    return stored?.client_id === appId
  } catch {
    return false
  }
}
