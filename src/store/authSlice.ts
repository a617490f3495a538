import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit'

import type { RefreshCause } from '../api/tokenProvider'
import type { InterruptionCause, SignOutCause, TokensCause } from '../auth/causes'
import type { EchoUser } from '../auth/echoUser'
import type { SignInReturnTo, SignInSource } from '../auth/EchoSession'
import type { EchoErrorData } from '../errors'

export type AuthStatus = 'loading' | 'unauthenticated' | 'authenticated'

/** Who is signed in. The refresh token never enters the store; the access token is redacted in devtools. */
export interface AuthState {
  status: AuthStatus
  user: EchoUser | null
  accessToken: string | null
  /** When the access token expires, epoch milliseconds. */
  expiresAt: number | null
  isRefreshing: boolean
  /**
   * A refresh could not reach Echo (offline, Echo down, no answer in time): the user is still
   * signed in, and the session tries again (back online, the page shown again, the next call, a
   * capped backoff). Cleared by the next new tokens.
   */
  isReconnecting: boolean
  /**
   * A sign-in this page started is under way: in its window (then `status` stays `unauthenticated`,
   * so the page behind keeps what it shows), or leaving for Echo (then `status` is `loading`).
   */
  isSigningIn: boolean
  error: EchoErrorData | null
  /**
   * How the last sign-in reached this page, `null` before any: `callback` when it came back from
   * Echo here (then `status` and `error` say whether it succeeded), `storage` or `tab` otherwise.
   */
  arrivedBy: SignInSource | null
  /**
   * What the app handed to the sign-in that completed on this page (`signIn({ returnTo })`), once:
   * `null` before it, and again after a sign-out or the next sign-in.
   */
  returnTo: SignInReturnTo | null
}

export interface SignedInPayload {
  user: EchoUser
  /** `null` in server mode (`EchoConfig.session: 'server'`): the page holds no token. */
  accessToken: string | null
  expiresAt: number | null
  /** How the sign-in reached this page. */
  arrivedBy?: SignInSource | undefined
  /** What the app handed to this sign-in. */
  returnTo?: SignInReturnTo | undefined
}

export interface TokenRefreshedPayload {
  /** `null` in server mode: the app's server renewed the token, and the page holds none. */
  accessToken: string | null
  expiresAt: number | null
}

const signedOutState: AuthState = {
  status: 'unauthenticated',
  user: null,
  accessToken: null,
  expiresAt: null,
  isRefreshing: false,
  isReconnecting: false,
  isSigningIn: false,
  error: null,
  arrivedBy: null,
  returnTo: null,
}

/** Loading until the session has read storage (or the address bar). */
export const initialAuthState: AuthState = { ...signedOutState, status: 'loading' }

/**
 * Forgets a store's session and echo-rtk's state in it: the session stops and is dropped (the next
 * `startEchoSession` makes a new one), and the auth, balance and API state go back to where a new
 * store starts. `resetEchoStore` in `echo-rtk/testing` sends it (as the plain action
 * `{ type: 'echo/resetSession' }`: that entry uses no Redux), for a test suite that keeps one store
 * for every test.
 * @internal
 */
export const sessionReset = createAction('echo/resetSession')

export const authSlice = createSlice({
  name: 'echo/auth',
  initialState: initialAuthState,
  // Each state typed as AuthState, not inferred as Immer's draft of it: `returnTo` is JSON, a type that
  // refers to itself, whose draft the declaration files could not name.
  reducers: {
    /** A sign-in starts: in a window of its own (`inWindow`: the page stays as it is), or leaving the page. */
    signInStarted: {
      reducer(state: AuthState, { payload }: PayloadAction<{ inWindow: boolean }>) {
        if (!payload.inWindow) state.status = 'loading'
        state.isSigningIn = true
        state.error = null
      },
      prepare: (inWindow: boolean = false) => ({ payload: { inWindow } }),
    },
    signedIn(
      _state: AuthState,
      { payload: { arrivedBy, returnTo, ...payload } }: PayloadAction<SignedInPayload>,
    ): AuthState {
      return {
        ...signedOutState,
        status: 'authenticated',
        ...payload,
        arrivedBy: arrivedBy ?? null,
        returnTo: returnTo ?? null,
      }
    },
    /** The sign-in failed: leaving for Echo, or (`arrivedBy: 'callback'`) coming back from it. */
    signInFailed: {
      reducer(
        _state: AuthState,
        { payload, meta }: PayloadAction<EchoErrorData, string, { arrivedBy: SignInSource | null }>,
      ) {
        return { ...signedOutState, error: payload, arrivedBy: meta.arrivedBy }
      },
      prepare: (error: EchoErrorData, arrivedBy: SignInSource | null = null) => ({
        payload: error,
        meta: { arrivedBy },
      }),
    },
    /** A refresh started; `meta.cause` says what started it (the renew timer, a 401, a wake…). */
    tokenRefreshStarted: {
      reducer(state: AuthState) {
        state.isRefreshing = true
      },
      prepare: (cause: RefreshCause) => ({ payload: undefined, meta: { cause } }),
    },
    /** New tokens for the same user; `meta.cause`: from Echo's answer here, or from another tab. */
    tokenRefreshed: {
      reducer(state: AuthState, { payload }: PayloadAction<TokenRefreshedPayload>) {
        state.accessToken = payload.accessToken
        state.expiresAt = payload.expiresAt
        state.isRefreshing = false
        state.isReconnecting = false
      },
      prepare: (token: TokenRefreshedPayload, cause: TokensCause) => ({ payload: token, meta: { cause } }),
    },
    /** A refresh could not reach Echo: still signed in, reconnecting. `meta.cause`: offline, a 503, the deadline… */
    tokenRefreshInterrupted: {
      reducer(state: AuthState) {
        state.isRefreshing = false
        state.isReconnecting = true
      },
      prepare: (cause: InterruptionCause) => ({ payload: undefined, meta: { cause } }),
    },
    /**
     * Nobody is signed in any more: `meta.cause` says why (the user, Echo refusing the refresh, another
     * tab…), and `payload` what to show when the user did not choose it (the session ended).
     */
    signedOut: {
      reducer(_state: AuthState, { payload }: PayloadAction<EchoErrorData | undefined>) {
        return payload === undefined ? signedOutState : { ...signedOutState, error: payload }
      },
      prepare: (cause: SignOutCause, ended?: EchoErrorData) => ({ payload: ended, meta: { cause } }),
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionReset, () => initialAuthState)
  },
})

export const {
  signInStarted,
  signedIn,
  signInFailed,
  tokenRefreshStarted,
  tokenRefreshed,
  tokenRefreshInterrupted,
  signedOut,
} = authSlice.actions
