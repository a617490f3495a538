import { createSlice, type PayloadAction } from '@reduxjs/toolkit'

import type { EchoUser } from '../auth/echoUser'
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
  error: EchoErrorData | null
}

export interface SignedInPayload {
  user: EchoUser
  accessToken: string
  expiresAt: number
}

export interface TokenRefreshedPayload {
  accessToken: string
  expiresAt: number
}

const signedOutState: AuthState = {
  status: 'unauthenticated',
  user: null,
  accessToken: null,
  expiresAt: null,
  isRefreshing: false,
  error: null,
}

/** Loading until the session has read storage (or the address bar). */
export const initialAuthState: AuthState = { ...signedOutState, status: 'loading' }

export const authSlice = createSlice({
  name: 'echo/auth',
  initialState: initialAuthState,
  reducers: {
    signInStarted(state) {
      state.status = 'loading'
      state.error = null
    },
    signedIn(_state, { payload }: PayloadAction<SignedInPayload>) {
      return { ...signedOutState, status: 'authenticated', ...payload }
    },
    signInFailed(_state, { payload }: PayloadAction<EchoErrorData>) {
      return { ...signedOutState, error: payload }
    },
    tokenRefreshStarted(state) {
      state.isRefreshing = true
    },
    tokenRefreshed(state, { payload }: PayloadAction<TokenRefreshedPayload>) {
      state.accessToken = payload.accessToken
      state.expiresAt = payload.expiresAt
      state.isRefreshing = false
    },
    /** Nobody is signed in any more; `payload` says why when the user did not choose it (the session ended). */
    signedOut(_state, { payload }: PayloadAction<EchoErrorData | undefined>) {
      return payload === undefined ? signedOutState : { ...signedOutState, error: payload }
    },
  },
})

export const { signInStarted, signedIn, signInFailed, tokenRefreshStarted, tokenRefreshed, signedOut } = authSlice.actions
