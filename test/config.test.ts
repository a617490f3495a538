import { describe, expect, it } from 'vitest'

import { DEFAULT_API_URL, DEFAULT_ROUTER_URL, DEFAULT_SCOPE, resolveConfig, type EchoConfig } from '../src/client'
import { unknownConfigKeys } from '../src/config'

describe('resolveConfig', () => {
  it('takes a daily limit of at least a cent and a low-balance threshold, and refuses any other amount naming the field', () => {
    const appId = '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51'
    expect(
      resolveConfig({ appId, dailyLimit: 2.5, lowBalanceAt: 0 }, { origin: 'http://localhost:5173' }),
    ).toMatchObject({
      dailyLimit: 2.5,
      lowBalanceAt: 0,
    })
    expect(() => resolveConfig({ appId, dailyLimit: 0 }, { origin: 'http://localhost:5173' })).toThrow(
      'EchoConfig.dailyLimit must be an amount in US dollars of at least 0.01, got 0',
    )
    expect(() => resolveConfig({ appId, lowBalanceAt: Number.NaN }, { origin: 'http://localhost:5173' })).toThrow(
      'EchoConfig.lowBalanceAt must be an amount in US dollars of at least 0, got NaN',
    )
  })

  it('fills the defaults (three hosts and scope, the redirect sign-in) and takes the page origin as redirect URI', () => {
    expect(
      resolveConfig({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51' }, { origin: 'http://localhost:5173' }),
    ).toEqual({
      appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51',
      apiUrl: 'https://echo.merit.systems',
      redirectUri: 'http://localhost:5173',
      scope: 'llm:invoke offline_access',
      baseRouterUrl: 'https://echo.router.merit.systems',
      serverOrigins: [],
      signIn: 'redirect',
      signInOnDemand: false,
      dailyLimit: null,
      maxCallCost: null,
      lowBalanceAt: 1,
      session: 'browser',
      serverUrl: 'http://localhost:5173/api/echo',
    })
    expect([DEFAULT_API_URL, DEFAULT_ROUTER_URL, DEFAULT_SCOPE]).toEqual([
      'https://echo.merit.systems',
      'https://echo.router.merit.systems',
      'llm:invoke offline_access',
    ])
  })

  it('takes how to sign in, and refuses a mode it does not know, naming the choices', () => {
    const appId = '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51'
    const redirectUri = 'http://localhost:5173'
    expect(resolveConfig({ appId, redirectUri, signIn: 'popup', signInOnDemand: true })).toMatchObject({
      signIn: 'popup',
      signInOnDemand: true,
    })
    expect(() => resolveConfig({ appId, redirectUri, signIn: 'modal' as 'popup' })).toThrow(
      'EchoConfig.signIn must be "redirect" or "popup", got "modal"',
    )
    expect(() => resolveConfig({ appId, redirectUri, signInOnDemand: 'yes' as unknown as boolean })).toThrow(
      'EchoConfig.signInOnDemand must be false or true, got "yes"',
    )
  })

  it('keeps what the app gives, without trailing slashes on the hosts', () => {
    const config: EchoConfig = {
      appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51',
      apiUrl: 'http://127.0.0.1:8787/',
      baseRouterUrl: 'http://127.0.0.1:8788//',
      redirectUri: 'http://localhost:3000/callback/',
      scope: 'llm:invoke',
    }
    expect(resolveConfig(config)).toEqual({
      appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51',
      apiUrl: 'http://127.0.0.1:8787',
      baseRouterUrl: 'http://127.0.0.1:8788',
      redirectUri: 'http://localhost:3000/callback/',
      scope: 'llm:invoke',
      serverOrigins: [],
      signIn: 'redirect',
      signInOnDemand: false,
      dailyLimit: null,
      maxCallCost: null,
      lowBalanceAt: 1,
      session: 'browser',
      serverUrl: '/api/echo',
    })
  })

  it("server mode: the page's router and API are the app's own server at serverUrl, on the page's origin", () => {
    const appId = '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f51'
    const page = { origin: 'https://app.example.com' }
    expect(resolveConfig({ appId, session: 'server' }, page)).toMatchObject({
      session: 'server',
      serverUrl: 'https://app.example.com/api/echo',
      baseRouterUrl: 'https://app.example.com/api/echo/router',
    })
    expect(resolveConfig({ appId, session: 'server', serverUrl: '/echo/' }, page)).toMatchObject({
      serverUrl: 'https://app.example.com/echo',
    })
    expect(() => resolveConfig({ appId, session: 'server', serverUrl: 'https://api.example.com/echo' }, page)).toThrow(
      "EchoConfig.serverUrl must be on this page's origin (https://app.example.com) in server mode",
    )
    expect(() => resolveConfig({ appId, session: 'cookie' as 'server' }, page)).toThrow(
      'EchoConfig.session must be "browser" or "server", got "cookie"',
    )
    expect(() => resolveConfig({ appId, session: 'server', redirectUri: 'https://app.example.com' })).toThrow(
      'is a path, and there is no page here to read it against',
    )
  })

  it("takes serverOrigins as origins: 'self' is the page's, a URL counts for its origin, each once", () => {
    const { serverOrigins } = resolveConfig(
      {
        appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f56',
        serverOrigins: ['self', 'https://api.example.com/v1/chat', 'http://localhost:5173/'],
      },
      { origin: 'http://localhost:5173' },
    )
    expect(serverOrigins).toEqual(['http://localhost:5173', 'https://api.example.com'])
  })

  it.each([
    [['api.example.com'], 'EchoConfig.serverOrigins must be an absolute http(s) URL, got "api.example.com"'],
    [['*'], 'EchoConfig.serverOrigins must be an absolute http(s) URL, got "*"'],
    ['self', 'EchoConfig.serverOrigins must be a list such as [\'self\'], got "self"'],
  ])('refuses serverOrigins of %j, saying what to give', (serverOrigins, message) => {
    expect(() =>
      resolveConfig({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f56', serverOrigins } as unknown as EchoConfig, {
        origin: 'http://localhost',
      }),
    ).toThrow(message)
  })

  it("refuses 'self' where there is no page to take the origin of", () => {
    expect(() =>
      resolveConfig(
        {
          appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f56',
          redirectUri: 'https://app.example.com',
          serverOrigins: ['self'],
        },
        { origin: undefined },
      ),
    ).toThrow(
      "EchoConfig.serverOrigins 'self' means the page's origin, and there is no page here: list the server's URL instead",
    )
  })

  it.each([undefined, '', '   ', 42])('refuses an appId of %j, naming the field and the value', (appId) => {
    expect(() => resolveConfig({ appId } as unknown as EchoConfig, { origin: 'http://localhost' })).toThrow(
      `EchoConfig.appId is required: pass your app's id from the Echo dashboard (got ${typeof appId === 'string' ? JSON.stringify(appId) : String(appId)})`,
    )
  })

  it.each(['my-echo-app', 'app-123', '60601628cdb7481e8f7e921981220348', '60601628-cdb7-481e-8f7e-92198122034'])(
    'refuses an appId of %j that is no Echo app id, before anything is sent, saying what one looks like',
    (appId) => {
      expect(() => resolveConfig({ appId }, { origin: 'http://localhost' })).toThrow(
        `EchoConfig.appId must be your app's id from the Echo dashboard, a UUID such as 60601628-cdb7-481e-8f7e-921981220348 (got ${JSON.stringify(appId)})`,
      )
    },
  )

  it.each([
    ' 60601628-cdb7-481e-8f7e-921981220348',
    '60601628-cdb7-481e-8f7e-921981220348\n',
    '60601628-cdb7-481e-8f7e-921981220348 ',
  ])('refuses an appId pasted with white space around it (%j) instead of trimming it quietly', (appId) => {
    expect(() => resolveConfig({ appId }, { origin: 'http://localhost' })).toThrow(
      `EchoConfig.appId has spaces or a line break around it (got ${JSON.stringify(appId)}): copy your app's id from the Echo dashboard without them`,
    )
  })

  it('takes an app id in capitals as Echo shows it', () => {
    expect(resolveConfig({ appId: '60601628-CDB7-481E-8F7E-921981220348' }, { origin: 'http://localhost' }).appId).toBe(
      '60601628-CDB7-481E-8F7E-921981220348',
    )
  })

  it.each([
    ['apiUrl', 'echo.merit.systems'],
    ['apiUrl', 'ftp://echo.test'],
    ['baseRouterUrl', '/router'],
    ['redirectUri', 'javascript:alert(1)'],
  ] as const)('refuses a %s of %j that is not an absolute http(s) URL', (field, value) => {
    expect(() =>
      resolveConfig({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f56', [field]: value }, { origin: 'http://localhost' }),
    ).toThrow(`EchoConfig.${field} must be an absolute http(s) URL, got ${JSON.stringify(value)}`)
  })

  it('asks for a redirect URI where there is no page to default it to', () => {
    expect(() => resolveConfig({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f56' }, { origin: undefined })).toThrow(
      /EchoConfig\.redirectUri is required outside a browser/,
    )
  })

  it('refuses a config that is not an object', () => {
    expect(() => resolveConfig(null as unknown as EchoConfig)).toThrow(
      'EchoConfig must be an object with at least an appId, got null',
    )
  })

  it("refuses Echo's React SDK's name for the API host, naming echo-rtk's: sign-in would otherwise go to Echo's own host", () => {
    const config = {
      appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f56',
      baseEchoUrl: 'http://127.0.0.1:8787',
    } as unknown as EchoConfig
    expect(() => resolveConfig(config, { origin: 'http://localhost' })).toThrow(
      "EchoConfig.baseEchoUrl is the name Echo's React SDK uses: echo-rtk calls it apiUrl (left as it is, it would be ignored and Echo's own host used)",
    )
  })

  it('names every key it does not read, and the one meant when it is a misspelling', () => {
    const config = {
      appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f56',
      apiURL: 'x',
      redirectUrl: 'y',
      theme: 'dark',
    } as unknown as EchoConfig
    expect(unknownConfigKeys(config)).toEqual([
      'echo-rtk: EchoConfig.apiURL is not a setting of echo-rtk and is ignored: did you mean apiUrl?',
      'echo-rtk: EchoConfig.redirectUrl is not a setting of echo-rtk and is ignored: did you mean redirectUri?',
      'echo-rtk: EchoConfig.theme is not a setting of echo-rtk and is ignored (it reads appId, apiUrl, redirectUri, scope, baseRouterUrl, serverOrigins, signIn, signInOnDemand, dailyLimit, maxCallCost, lowBalanceAt, session, serverUrl)',
    ])
    expect(
      unknownConfigKeys({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f56', apiUrl: 'x', serverOrigins: ['self'] }),
    ).toEqual([])
  })
})
