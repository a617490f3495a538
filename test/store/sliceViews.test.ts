import { describe, expect, it } from 'vitest'

import * as echoRtk from 'echo-rtk'
import { authSlice, balanceSlice } from 'echo-rtk'

describe('the slices apps see', () => {
  it('give their name, reducer and initial state, as Redux Toolkit slices do', () => {
    expect(authSlice.name).toBe('echo/auth')
    expect(balanceSlice.name).toBe('echo/balance')
    expect(authSlice.getInitialState()).toMatchObject({ status: 'loading', user: null, accessToken: null })
    expect(authSlice.reducer(undefined, { type: 'echo/auth/signedOut', payload: undefined })).toMatchObject({
      status: 'unauthenticated',
      accessToken: null,
    })
    expect(balanceSlice.reducer(undefined, { type: '@@init' })).toEqual(balanceSlice.getInitialState())
  })

  it('hold no action creator, so app code cannot sign a user in with a token of its own making', () => {
    expect(authSlice).not.toHaveProperty('actions')
    expect(balanceSlice).not.toHaveProperty('actions')
    for (const name of [
      'signedIn',
      'signedOut',
      'signInFailed',
      'signInStarted',
      'tokenRefreshed',
      'tokenRefreshStarted',
    ])
      expect(echoRtk).not.toHaveProperty(name)
  })
})
