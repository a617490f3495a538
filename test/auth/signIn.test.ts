import { WebStorageStateStore } from 'oidc-client-ts'
import { describe, expect, it } from 'vitest'

import { resolveConfig } from 'echo-rtk'

import { oidcSettings } from '../../src/auth/signIn'
import { storedUserKey } from '../../src/auth/storedUser'

const storage = {
  getItem: () => null,
  setItem: () => undefined,
  removeItem: () => undefined,
  clear: () => undefined,
  key: () => null,
  length: 0,
} as Storage

describe('the OidcClient settings', () => {
  const config = resolveConfig(
    { appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', apiUrl: 'https://echo.test' },
    { origin: 'http://localhost:5173' },
  )
  const settings = oidcSettings(config, storage)

  it('point at Echo with the app id, the redirect URI and the scope', () => {
    expect(settings).toMatchObject({
      authority: 'https://echo.test',
      client_id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
      redirect_uri: 'http://localhost:5173',
      response_type: 'code',
      scope: 'llm:invoke offline_access',
    })
  })

  it('leave renewing and the profile to the session: no automatic silent renew and no userinfo of oidc-client-ts own', () => {
    expect(settings).toMatchObject({ loadUserInfo: false })
    expect(settings).not.toHaveProperty('automaticSilentRenew')
  })

  it("keep sign-in state in the given storage (localStorage in a browser), and the user under oidc-client-ts's own key", () => {
    expect(settings.stateStore).toBeInstanceOf(WebStorageStateStore)
    expect(storedUserKey(config)).toBe('oidc.user:https://echo.test:2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50')
  })

  it("spell out Echo's endpoints: there is no discovery document", () => {
    expect(settings.metadata).toEqual({
      issuer: 'https://echo.test',
      authorization_endpoint: 'https://echo.test/api/oauth/authorize',
      token_endpoint: 'https://echo.test/api/oauth/token',
      userinfo_endpoint: 'https://echo.test/api/oauth/userinfo',
      jwks_uri: 'https://echo.test/.well-known/jwks.json',
      end_session_endpoint: 'https://echo.test/api/oauth/logout',
    })
  })
})
