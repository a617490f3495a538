import { describe, expect, it } from 'vitest'

import { echoDevToolsOptions } from 'echo-rtk'

import { signedIn, tokenRefreshed } from '../../src/store/authSlice'

const ada = { id: 'user-1', email: 'ada@example.com', name: 'Ada', picture: null }

describe('echoDevToolsOptions', () => {
  it('shows every token in an action as [redacted], leaving the action itself untouched', () => {
    const action = signedIn({ user: ada, accessToken: 'secret-token', expiresAt: 1 })
    expect(echoDevToolsOptions.actionSanitizer!(action, 0)).toEqual({
      ...action,
      payload: { ...action.payload, accessToken: '[redacted]' },
    })
    expect(action.payload.accessToken).toBe('secret-token')
    expect(
      echoDevToolsOptions.actionSanitizer!(tokenRefreshed({ accessToken: 'next', expiresAt: 2 }), 1),
    ).toMatchObject({
      payload: { accessToken: '[redacted]', expiresAt: 2 },
    })
  })

  it('shows the token in the state as [redacted], and token-named fields anywhere', () => {
    const state = {
      echo: { auth: { accessToken: 'secret-token', user: ada } },
      other: { nested: [{ refresh_token: 'r', keep: 'me' }] },
    }
    expect(echoDevToolsOptions.stateSanitizer!(state, 0)).toEqual({
      echo: { auth: { accessToken: '[redacted]', user: ada } },
      other: { nested: [{ refresh_token: '[redacted]', keep: 'me' }] },
    })
    expect(state.echo.auth.accessToken).toBe('secret-token')
  })
})
