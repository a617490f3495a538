import { WebStorageStateStore } from 'oidc-client-ts'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { EchoError, resolveConfig } from 'echo-rtk'

import { sessionEnvironment } from '../../src/auth/environment'
import { completeSignIn, oidcSettings, signInUrl, tokenFreeError } from '../../src/auth/signIn'
import { fetchUserInfo } from '../../src/api/userInfo'
import { readStoredUser, storedUserKey } from '../../src/auth/storedUser'
import { memoryStorage } from '../support/memoryStorage'

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

/** A fetch that answers each path of Echo with `answers[path]`, recording the URLs asked for. */
function echoAnswering(answers: Record<string, () => Response | Promise<Response>>) {
  const asked: string[] = []
  const fetch = (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString()
    asked.push(url)
    const answer = answers[new URL(url).pathname]
    return answer === undefined ? Promise.reject(new Error(`nothing serves ${url}`)) : Promise.resolve().then(answer)
  }
  return { fetch, asked }
}

const loadProfile = (answers: Record<string, () => Response | Promise<Response>>) =>
  fetchUserInfo(echoAnswering(answers).fetch, 'https://echo.test', 'access-1')

/** The profile read when userinfo says `{ sub: 'u1' }` and the account answers `account`. */
const profileWithAccount = (account: () => Response | Promise<Response>) =>
  loadProfile({ '/api/oauth/userinfo': () => Response.json({ sub: 'u1' }), '/api/v1/user': account })

describe("the signed-in user's profile", () => {
  it("reads userinfo with the access token, and keeps userinfo's own picture over the account's image", async () => {
    const { fetch, asked } = echoAnswering({
      '/api/oauth/userinfo': () => Response.json({ sub: 'u1', name: 'Ada', picture: 'https://echo.test/ada.png' }),
      '/api/v1/user': () => Response.json({ image: 'https://echo.test/account.png' }),
    })
    const seen: (string | null)[] = []
    const withHeaders = (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers).get('Authorization'))
      return fetch(input)
    }
    await expect(fetchUserInfo(withHeaders, 'https://echo.test', 'access-1')).resolves.toStrictEqual({
      sub: 'u1',
      name: 'Ada',
      picture: 'https://echo.test/ada.png',
    })
    expect(asked).toContain('https://echo.test/api/oauth/userinfo')
    expect(seen).toEqual(['Bearer access-1', 'Bearer access-1'])
  })

  it("takes the account's image when userinfo has no picture, or an empty one", async () => {
    for (const picture of [undefined, '']) {
      const profile = await loadProfile({
        '/api/oauth/userinfo': () => Response.json({ sub: 'u1', picture }),
        '/api/v1/user': () => Response.json({ image: 'https://echo.test/account.png' }),
      })
      expect(profile.picture).toBe('https://echo.test/account.png')
    }
  })

  it('an answer without a subject is refused: no body, no sub, an empty one, one that is not text', async () => {
    const answers = [
      () => new Response('<html>not json</html>'),
      () => Response.json({}),
      () => Response.json(null),
      () => Response.json({ sub: '' }),
      () => Response.json({ sub: 42 }),
    ]
    for (const answer of answers) {
      const failure = await loadProfile({
        '/api/oauth/userinfo': answer,
        '/api/v1/user': () => Response.json({}),
      }).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(EchoError)
      expect(failure).toMatchObject({
        code: 'UNKNOWN_ERROR',
        reason: 'bad-answer',
        message: 'The userinfo answer has no subject while loading the user profile',
        endpoint: '/api/oauth/userinfo',
        action: 'loading the user profile',
      })
    }
  })

  it("takes the account's image at an http or https address, else its picture", async () => {
    await expect(profileWithAccount(() => Response.json({ image: 'http://echo.test/a.png' }))).resolves.toStrictEqual({
      sub: 'u1',
      picture: 'http://echo.test/a.png',
    })
    for (const image of [42, ['https://echo.test/a.png'], 'ftp://echo.test/a.png']) {
      const profile = await profileWithAccount(() => Response.json({ image, picture: 'https://echo.test/p.png' }))
      expect(profile).toStrictEqual({ sub: 'u1', picture: 'https://echo.test/p.png' })
    }
  })

  it('leaves the picture out when the account has no image at a web address (a script or data URL)', async () => {
    for (const account of [
      { image: 'javascript:alert(1)//https://echo.test/a.png' },
      { image: 'data:image/png;base64,iVBORw0KGgo=' },
      { image: '', picture: null },
      {},
      null,
    ]) {
      await expect(profileWithAccount(() => Response.json(account))).resolves.toStrictEqual({ sub: 'u1' })
    }
  })

  it('leaves the picture out when the account cannot be read: an error, a body not JSON, no network', async () => {
    for (const account of [
      () => Response.json({ image: 'https://echo.test/a.png' }, { status: 500 }),
      () => new Response('not json'),
      () => Promise.reject(new TypeError('Failed to fetch')),
    ]) {
      await expect(profileWithAccount(account)).resolves.toStrictEqual({ sub: 'u1' })
    }
  })
})

describe('errors of oidc-client-ts, made safe to keep', () => {
  it("keep only an error's name and message: never the request form with a token in it, nor a cause", () => {
    const thrown = Object.assign(new TypeError('invalid_grant', { cause: 'refresh-1' }), {
      form: new URLSearchParams({ refresh_token: 'refresh-1' }),
    })
    const safe = tokenFreeError(thrown)
    expect(safe).not.toBe(thrown)
    expect(safe).toBeInstanceOf(Error)
    expect(safe.name).toBe('TypeError')
    expect(safe.message).toBe('invalid_grant')
    expect(safe).not.toHaveProperty('form')
    expect(safe.cause).toBeUndefined()
  })

  it("pass echo-rtk's own errors as they are", () => {
    const own = new EchoError({ code: 'NETWORK_ERROR', message: 'offline', action: 'completing sign-in' })
    expect(tokenFreeError(own)).toBe(own)
  })

  it('turn a thrown string into an error with that message, and anything else into an unknown error', () => {
    expect(tokenFreeError('popup closed')).toEqual(new Error('popup closed'))
    expect(tokenFreeError(undefined)).toEqual(new Error('Unknown error'))
    expect(tokenFreeError({ message: 'not an error' })).toEqual(new Error('Unknown error'))
  })
})

describe('a sign-in by redirect', () => {
  const config = resolveConfig(
    { appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', apiUrl: 'https://echo.test' },
    { origin: 'http://localhost:5173' },
  )

  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("keeps its state as a redirect's, with the returnTo the app asked for", async () => {
    const storage = memoryStorage()
    const { state } = await signInUrl(config, storage, { returnTo: { draft: 'hello' } })
    expect(JSON.parse(storage.getItem(`oidc.${state}`)!)).toMatchObject({
      request_type: 'si:r',
      data: { returnTo: { draft: 'hello' } },
    })
  })

  it('keeps no returnTo when the app asked for none', async () => {
    const storage = memoryStorage()
    const { state } = await signInUrl(config, storage)
    expect(JSON.parse(storage.getItem(`oidc.${state}`)!)).not.toHaveProperty('data')
  })

  it('completes with the userinfo profile and the returnTo; tokens without a lifetime keep no expiry', async () => {
    const storage = memoryStorage()
    const { state } = await signInUrl(config, storage, { returnTo: 'chat' })
    // oidc-client-ts exchanges the code with the page's own fetch.
    vi.stubGlobal(
      'fetch',
      echoAnswering({
        '/api/oauth/token': () =>
          Response.json({ access_token: 'access-1', token_type: 'Bearer', scope: 'llm:invoke' }),
      }).fetch,
    )
    const { fetch } = echoAnswering({
      '/api/oauth/userinfo': () => Response.json({ sub: 'u1', name: 'Ada' }),
      '/api/v1/user': () => Response.json({}),
    })
    const env = sessionEnvironment({ storage, fetch, now: () => 1_700_000_000_000 })
    const completed = await completeSignIn(env, config, `http://localhost:5173/?code=c1&state=${state}`)
    expect(completed.returnTo).toBe('chat')
    expect(completed.user).toStrictEqual({
      session_state: null,
      access_token: 'access-1',
      token_type: 'Bearer',
      scope: 'llm:invoke',
      profile: { sub: 'u1', name: 'Ada' },
    })
    expect(readStoredUser(storage, storedUserKey(config))?.profile).toEqual({ sub: 'u1', name: 'Ada' })
  })
})
