import type { User } from 'oidc-client-ts'

import type { ResolvedEchoConfig } from '../config'
import { EchoError, type EchoErrorData } from '../errors'
import { readSignInCallback, withoutSignInParams } from './callbackUrl'
import type { EchoOidc } from './echoOidc'
import type { EchoEnvironment } from './environment'
import { isOwnSignInState, storeUser } from './storedUser'
import { storedUserKey } from './storedUserKey'
import { tokenFreeError } from './tokenFreeError'
import { fetchUserInfo } from './userInfo'

/** A sign-in coming back in the address bar: its user to come, or Echo's refusal. */
export type SignInReturn = { kind: 'code'; user: Promise<User> } | { kind: 'refused'; error: EchoErrorData }

/**
 * Takes a sign-in coming back from Echo out of the address bar, if this app started it (its
 * `state` is one this app stored): the address bar is cleaned first, so no later mount (React
 * StrictMode) or second store sees the code again and exchanges it twice; then the code is
 * exchanged, the profile read from userinfo (Echo issues no id token) and the user stored. `null`
 * when the page is no sign-in coming back.
 */
export function takeSignInReturn(env: EchoEnvironment, oidc: EchoOidc, config: ResolvedEchoConfig): SignInReturn | null {
  const href = env.location.href
  const callback = readSignInCallback(href)
  if (callback === null || !isOwnSignInState(env.storage, callback.state, config.appId)) return null
  env.history.replaceState(env.history.state, '', withoutSignInParams(href))
  if (callback.kind === 'error') {
    env.storage.removeItem(`oidc.${callback.state}`)
    const reason = callback.description === null ? callback.error : `${callback.description} (${callback.error})`
    return { kind: 'refused', error: { code: 'UNKNOWN_ERROR', reason: 'sign-in-refused', message: `Sign-in was refused: ${reason}` } }
  }
  return { kind: 'code', user: completeSignIn(env, oidc, config, href) }
}

async function completeSignIn(env: EchoEnvironment, oidc: EchoOidc, config: ResolvedEchoConfig, href: string): Promise<User> {
  try {
    const user = await oidc.exchangeCode(href, env.now())
    user.profile = { ...user.profile, ...(await fetchUserInfo(env.fetch, config.apiUrl, user.access_token)) } as User['profile']
    // Stored only now, with its profile: a stored user without one would be no one to restore.
    storeUser(env.storage, storedUserKey(config), user)
    return user
  } catch (error) {
    throw EchoError.from(tokenFreeError(error), 'completing sign-in')
  }
}
