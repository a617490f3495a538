import { describe, expect, it } from 'vitest'

import { echoDevToolsOptions } from 'echo-rtk'

import { SESSION_ENDED } from '../../src/auth/sessionErrors'
import {
  signedIn,
  signedOut,
  tokenRefreshed,
  tokenRefreshInterrupted,
  tokenRefreshStarted,
} from '../../src/store/authSlice'
import { balanceAskedAgain } from '../../src/store/money/balanceAskedAgain'

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
      echoDevToolsOptions.actionSanitizer!(tokenRefreshed({ accessToken: 'next', expiresAt: 2 }, { by: 'echo' }), 1),
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

  it("every session action's cause reaches DevTools as it is (meta.cause), and its token never does", () => {
    const actions = [
      tokenRefreshStarted({ by: 'unauthorized', request: 'GET https://echo.merit.systems/api/v1/balance' }),
      tokenRefreshInterrupted({ by: 'offline', detail: 'TypeError: Failed to fetch' }),
      tokenRefreshed({ accessToken: 'secret-token', expiresAt: 2 }, { by: 'tab' }),
      signedOut({ by: 'echo', error: 'invalid_grant' }, SESSION_ENDED),
      balanceAskedAgain({ by: 'checkout', check: 3 }),
    ]
    const shown = actions.map((action, index) => echoDevToolsOptions.actionSanitizer!(action, index))
    expect(shown.map((action) => (action as { meta?: unknown }).meta)).toEqual([
      { cause: { by: 'unauthorized', request: 'GET https://echo.merit.systems/api/v1/balance' } },
      { cause: { by: 'offline', detail: 'TypeError: Failed to fetch' } },
      { cause: { by: 'tab' } },
      { cause: { by: 'echo', error: 'invalid_grant' } },
      { cause: { by: 'checkout', check: 3 } },
    ])
    expect(JSON.stringify(shown)).not.toContain('secret-token')
  })
})
