import { describe, expect, it } from 'vitest'

import { DEFAULT_API_URL, DEFAULT_ROUTER_URL, DEFAULT_SCOPE, resolveConfig, type EchoConfig } from '../src/client'
import { unknownConfigKeys } from '../src/config'

describe('resolveConfig', () => {
  it('fills the three defaults and takes the page origin as redirect URI', () => {
    expect(resolveConfig({ appId: 'app-1' }, { origin: 'http://localhost:5173' })).toEqual({
      appId: 'app-1',
      apiUrl: 'https://echo.merit.systems',
      redirectUri: 'http://localhost:5173',
      scope: 'llm:invoke offline_access',
      baseRouterUrl: 'https://echo.router.merit.systems',
      serverOrigins: [],
    })
    expect([DEFAULT_API_URL, DEFAULT_ROUTER_URL, DEFAULT_SCOPE]).toEqual(['https://echo.merit.systems', 'https://echo.router.merit.systems', 'llm:invoke offline_access'])
  })

  it('keeps what the app gives, without trailing slashes on the hosts', () => {
    const config: EchoConfig = {
      appId: 'app-1',
      apiUrl: 'http://127.0.0.1:8787/',
      baseRouterUrl: 'http://127.0.0.1:8788//',
      redirectUri: 'http://localhost:3000/callback/',
      scope: 'llm:invoke',
    }
    expect(resolveConfig(config)).toEqual({
      appId: 'app-1',
      apiUrl: 'http://127.0.0.1:8787',
      baseRouterUrl: 'http://127.0.0.1:8788',
      redirectUri: 'http://localhost:3000/callback/',
      scope: 'llm:invoke',
      serverOrigins: [],
    })
  })

  it("takes serverOrigins as origins: 'self' is the page's, a URL counts for its origin, each once", () => {
    const { serverOrigins } = resolveConfig({ appId: 'a', serverOrigins: ['self', 'https://api.example.com/v1/chat', 'http://localhost:5173/'] }, { origin: 'http://localhost:5173' })
    expect(serverOrigins).toEqual(['http://localhost:5173', 'https://api.example.com'])
  })

  it.each([
    [['api.example.com'], 'EchoConfig.serverOrigins must be an absolute http(s) URL, got "api.example.com"'],
    [['*'], 'EchoConfig.serverOrigins must be an absolute http(s) URL, got "*"'],
    ['self', 'EchoConfig.serverOrigins must be a list such as [\'self\'], got "self"'],
  ])('refuses serverOrigins of %j, saying what to give', (serverOrigins, message) => {
    expect(() => resolveConfig({ appId: 'a', serverOrigins } as unknown as EchoConfig, { origin: 'http://localhost' })).toThrow(message)
  })

  it("refuses 'self' where there is no page to take the origin of", () => {
    expect(() => resolveConfig({ appId: 'a', redirectUri: 'https://app.example.com', serverOrigins: ['self'] }, { origin: undefined })).toThrow(
      "EchoConfig.serverOrigins 'self' means the page's origin, and there is no page here: list the server's URL instead",
    )
  })

  it.each([undefined, '', '   ', 42])('refuses an appId of %j, naming the field and the value', (appId) => {
    expect(() => resolveConfig({ appId } as unknown as EchoConfig, { origin: 'http://localhost' })).toThrow(
      `EchoConfig.appId is required: pass your app's id from the Echo dashboard (got ${typeof appId === 'string' ? JSON.stringify(appId) : String(appId)})`,
    )
  })

  it.each([
    ['apiUrl', 'echo.merit.systems'],
    ['apiUrl', 'ftp://echo.test'],
    ['baseRouterUrl', '/router'],
    ['redirectUri', 'javascript:alert(1)'],
  ] as const)('refuses a %s of %j that is not an absolute http(s) URL', (field, value) => {
    expect(() => resolveConfig({ appId: 'a', [field]: value }, { origin: 'http://localhost' })).toThrow(`EchoConfig.${field} must be an absolute http(s) URL, got ${JSON.stringify(value)}`)
  })

  it('asks for a redirect URI where there is no page to default it to', () => {
    expect(() => resolveConfig({ appId: 'a' }, { origin: undefined })).toThrow(/EchoConfig\.redirectUri is required outside a browser/)
  })

  it('refuses a config that is not an object', () => {
    expect(() => resolveConfig(null as unknown as EchoConfig)).toThrow('EchoConfig must be an object with at least an appId, got null')
  })

  it("refuses Echo's React SDK's name for the API host, naming echo-rtk's: sign-in would otherwise go to Echo's own host", () => {
    const config = { appId: 'a', baseEchoUrl: 'http://127.0.0.1:8787' } as unknown as EchoConfig
    expect(() => resolveConfig(config, { origin: 'http://localhost' })).toThrow(
      "EchoConfig.baseEchoUrl is the name Echo's React SDK uses: echo-rtk calls it apiUrl (left as it is, it would be ignored and Echo's own host used)",
    )
  })

  it('names every key it does not read, and the one meant when it is a misspelling', () => {
    const config = { appId: 'a', apiURL: 'x', redirectUrl: 'y', theme: 'dark' } as unknown as EchoConfig
    expect(unknownConfigKeys(config)).toEqual([
      'echo-rtk: EchoConfig.apiURL is not a setting of echo-rtk and is ignored: did you mean apiUrl?',
      'echo-rtk: EchoConfig.redirectUrl is not a setting of echo-rtk and is ignored: did you mean redirectUri?',
      'echo-rtk: EchoConfig.theme is not a setting of echo-rtk and is ignored (it reads appId, apiUrl, redirectUri, scope, baseRouterUrl, serverOrigins)',
    ])
    expect(unknownConfigKeys({ appId: 'a', apiUrl: 'x', serverOrigins: ['self'] })).toEqual([])
  })
})
