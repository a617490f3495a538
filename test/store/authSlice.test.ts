import { describe, expect, it } from 'vitest'

import {
  selectAuthStatus,
  selectEchoError,
  selectEchoUser,
  selectIsAuthenticated,
  selectIsReconnecting,
  type AuthState,
  type EchoRootState,
} from 'echo-rtk'

import {
  authSlice,
  signedIn,
  signedOut,
  signInFailed,
  signInStarted,
  tokenRefreshed,
  tokenRefreshStarted,
} from '../../src/store/authSlice'

const reduce = (...actions: Parameters<typeof authSlice.reducer>[1][]) =>
  actions.reduce<AuthState>(
    (state, action) => authSlice.reducer(state, action),
    authSlice.reducer(undefined, { type: 'init' }),
  )
const ada = { id: 'user-1', email: 'ada@example.com', name: 'Ada', picture: null }
const root = (auth: AuthState) =>
  ({
    echo: {
      auth,
      balance: {
        balance: null,
        freeTierBalance: null,
        status: 'idle',
        error: null,
        paymentError: null,
        isInsufficientFunds: false,
      },
    },
  }) as unknown as EchoRootState

describe('authSlice', () => {
  it('starts loading, with nobody signed in', () => {
    expect(reduce()).toEqual({
      status: 'loading',
      user: null,
      accessToken: null,
      expiresAt: null,
      isRefreshing: false,
      isReconnecting: false,
      isSigningIn: false,
      error: null,
      arrivedBy: null,
      returnTo: null,
    })
  })

  it('signs in with the user, the token and its expiry', () => {
    expect(reduce(signInStarted(), signedIn({ user: ada, accessToken: 't1', expiresAt: 1_000 }))).toEqual({
      status: 'authenticated',
      user: ada,
      accessToken: 't1',
      expiresAt: 1_000,
      isRefreshing: false,
      isReconnecting: false,
      isSigningIn: false,
      error: null,
      arrivedBy: null,
      returnTo: null,
    })
  })

  it('remembers how the sign-in reached the page: back from Echo, from storage, from another tab', () => {
    expect(reduce(signedIn({ user: ada, accessToken: 't1', expiresAt: 1, arrivedBy: 'callback' })).arrivedBy).toBe(
      'callback',
    )
    expect(reduce(signedIn({ user: ada, accessToken: 't1', expiresAt: 1, arrivedBy: 'tab' })).arrivedBy).toBe('tab')
    expect(reduce(signInFailed({ code: 'UNKNOWN_ERROR', reason: 'unknown', message: 'x' }, 'callback'))).toMatchObject({
      status: 'unauthenticated',
      arrivedBy: 'callback',
      error: { message: 'x' },
    })
    expect(reduce(signInFailed({ code: 'UNKNOWN_ERROR', reason: 'unknown', message: 'x' })).arrivedBy).toBeNull()
  })

  it('a refresh changes only the token, its expiry and isRefreshing', () => {
    const signedInState = reduce(signedIn({ user: ada, accessToken: 't1', expiresAt: 1_000 }))
    const refreshing = authSlice.reducer(signedInState, tokenRefreshStarted({ by: 'renew-timer' }))
    expect(refreshing).toEqual({ ...signedInState, isRefreshing: true })
    const refreshed = authSlice.reducer(
      refreshing,
      tokenRefreshed({ accessToken: 't2', expiresAt: 2_000 }, { by: 'echo' }),
    )
    expect(refreshed).toEqual({ ...signedInState, accessToken: 't2', expiresAt: 2_000 })
    expect(refreshed.user).toBe(signedInState.user)
  })

  it('a refresh that could not reach Echo keeps the user and the token, and reports reconnecting until new tokens come', () => {
    const signedInState = reduce(signedIn({ user: ada, accessToken: 't1', expiresAt: 1_000 }))
    const interrupted = authSlice.reducer(
      authSlice.reducer(signedInState, tokenRefreshStarted({ by: 'renew-timer' })),
      authSlice.actions.tokenRefreshInterrupted({ by: 'deadline' }),
    )
    expect(interrupted).toEqual({ ...signedInState, isReconnecting: true })
    expect(selectIsReconnecting(root(interrupted))).toBe(true)
    const back = authSlice.reducer(interrupted, tokenRefreshed({ accessToken: 't2', expiresAt: 2_000 }, { by: 'echo' }))
    expect(back).toMatchObject({ status: 'authenticated', accessToken: 't2', isReconnecting: false })
    expect(authSlice.reducer(interrupted, signedOut({ by: 'user' })).isReconnecting).toBe(false)
  })

  it('a failed sign-in is unauthenticated with the error; starting again clears it', () => {
    const failed = reduce(
      signInFailed({ code: 'UNKNOWN_ERROR', reason: 'sign-in-refused', message: 'Sign-in was refused: access_denied' }),
    )
    expect(failed).toMatchObject({
      status: 'unauthenticated',
      user: null,
      error: { message: 'Sign-in was refused: access_denied' },
    })
    expect(authSlice.reducer(failed, signInStarted())).toMatchObject({ status: 'loading', error: null })
  })

  it('a sign-in in its own window leaves the page signed out while it is under way; leaving the page is loading', () => {
    const signedOutNow = reduce(signedOut({ by: 'user' }))
    expect(authSlice.reducer(signedOutNow, signInStarted(true))).toMatchObject({
      status: 'unauthenticated',
      isSigningIn: true,
    })
    expect(authSlice.reducer(signedOutNow, signInStarted())).toMatchObject({ status: 'loading', isSigningIn: true })
    const closed = authSlice.reducer(authSlice.reducer(signedOutNow, signInStarted(true)), signedOut({ by: 'user' }))
    expect(closed).toMatchObject({ status: 'unauthenticated', isSigningIn: false })
  })

  it('sign-out forgets the user and the token', () => {
    expect(reduce(signedIn({ user: ada, accessToken: 't1', expiresAt: 1 }), signedOut({ by: 'user' }))).toEqual({
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
    })
  })
})

describe('selectors', () => {
  it('read status, user and whether someone is signed in', () => {
    const state = root(reduce(signedIn({ user: ada, accessToken: 't1', expiresAt: 1 })))
    expect([selectAuthStatus(state), selectEchoUser(state), selectIsAuthenticated(state)]).toEqual([
      'authenticated',
      ada,
      true,
    ])
    expect(selectIsAuthenticated(root(reduce()))).toBe(false)
  })

  it('prefer the auth error to the balance error', () => {
    const authError = { code: 'UNKNOWN_ERROR' as const, reason: 'unknown' as const, message: 'auth' }
    const balanceError = { code: 'HTTP_500' as const, message: 'balance', statusCode: 500 }
    const state = root(reduce(signInFailed(authError)))
    const withBalanceError = {
      echo: { ...state.echo, balance: { ...state.echo.balance, error: balanceError } },
    } as unknown as EchoRootState
    expect(selectEchoError(withBalanceError)).toEqual(authError)
    const onlyBalance = { echo: { ...withBalanceError.echo, auth: reduce() } } as unknown as EchoRootState
    expect(selectEchoError(onlyBalance)).toEqual(balanceError)
  })

  it('while the session reconnects, a balance that got no answer is no error (isReconnecting says it); any other balance error still is', () => {
    const reconnecting = reduce(
      signedIn({ user: ada, accessToken: 't1', expiresAt: 1 }),
      authSlice.actions.tokenRefreshInterrupted({ by: 'deadline' }),
    )
    const withError = (error: object) =>
      ({
        echo: { ...root(reconnecting).echo, balance: { ...root(reconnecting).echo.balance, error } },
      }) as unknown as EchoRootState
    expect(
      selectEchoError(withError({ code: 'NETWORK_ERROR', message: 'Network error while fetching balance' })),
    ).toBeNull()
    expect(selectEchoError(withError({ code: 'HTTP_500', message: 'balance', statusCode: 500 }))).toMatchObject({
      code: 'HTTP_500',
    })
  })
})
