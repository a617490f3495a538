import { createServer } from 'node:net'

import { describe, expect, test } from 'vitest'

import { DEFAULT_SETTINGS, readSettings, resolveSettings, SETTING_SOURCES, usage } from '../../dev-server/settings.mjs'
import { startDevServer } from '../../dev-server/startDevServer.mjs'

describe('the settings contract (environment variables and flags)', () => {
  test('the defaults: 8787, 8788, 900 s tokens, no auto-login, 30 ms a chunk, $10, and Echo’s behaviour', () => {
    expect(resolveSettings()).toEqual({
      port: 8787,
      routerPort: 8788,
      accessTtl: 900,
      autoLogin: false,
      streamDelayMs: 30,
      balance: 10,
      creditDelayMs: 0,
      refreshGrace: true,
      codeReplay: true,
      modelsRoute: false,
      appIds: [],
    })
    expect(DEFAULT_SETTINGS.port).toBe(8787)
  })

  test('every environment variable is read', () => {
    const { settings } = readSettings(
      {
        ECHO_DEV_PORT: '9000',
        ECHO_DEV_ROUTER_PORT: '9001',
        ECHO_DEV_ACCESS_TTL: '15',
        ECHO_DEV_AUTO_LOGIN: '1',
        ECHO_DEV_STREAM_DELAY: '5',
        ECHO_DEV_BALANCE: '0.5',
        ECHO_DEV_REFRESH_GRACE: '0',
        ECHO_DEV_CODE_REPLAY: '0',
        ECHO_DEV_MODELS_ROUTE: '1',
        ECHO_DEV_APP_ID: '11111111-2222-4333-8444-555555555555',
      },
      [],
    )

    expect(settings).toEqual({
      port: 9000,
      routerPort: 9001,
      accessTtl: 15,
      autoLogin: true,
      streamDelayMs: 5,
      balance: 0.5,
      refreshGrace: false,
      codeReplay: false,
      modelsRoute: true,
      appIds: ['11111111-2222-4333-8444-555555555555'],
    })
  })

  test("--app-id takes the developer's own app ids, comma-separated, and refuses what is not one", () => {
    const mine = '11111111-2222-4333-8444-555555555555'
    const theirs = '66666666-7777-4888-9999-000000000000'
    expect(readSettings({}, ['--app-id', `${mine}, ${theirs}`]).settings).toEqual({ appIds: [mine, theirs] })
    expect(() => readSettings({}, ['--app-id=my-app'])).toThrow(
      `--app-id must be app ids from Echo's dashboard (UUIDs), got "my-app"`,
    )
    expect(() => resolveSettings({ appIds: ['my-app'] })).toThrow("appIds must be app ids from Echo's dashboard")
  })

  test('every flag is read, as `--flag value` or `--flag=value`, and wins over its variable', () => {
    const { settings } = readSettings({ ECHO_DEV_PORT: '9000', ECHO_DEV_AUTO_LOGIN: '0' }, [
      '--port',
      '8000',
      '--router-port=8001',
      '--access-ttl',
      '15',
      '--auto-login',
      '--stream-delay=0',
      '--balance',
      '2',
      '--refresh-grace',
      '--code-replay=0',
      '--models-route',
    ])

    expect(settings).toEqual({
      port: 8000,
      routerPort: 8001,
      accessTtl: 15,
      autoLogin: true,
      streamDelayMs: 0,
      balance: 2,
      refreshGrace: true,
      codeReplay: false,
      modelsRoute: true,
    })
  })

  test('--auto-login takes an optional 1 or 0; ECHO_DEV_AUTO_LOGIN=0 is off', () => {
    expect(readSettings({}, ['--auto-login', '0']).settings.autoLogin).toBe(false)
    expect(readSettings({}, ['--auto-login=1', '--port', '1']).settings).toEqual({ autoLogin: true, port: 1 })
    expect(readSettings({ ECHO_DEV_AUTO_LOGIN: '0' }, []).settings.autoLogin).toBe(false)
    expect(readSettings({}, ['--help']).help).toBe(true)
    expect(readSettings({ ECHO_DEV_REFRESH_GRACE: '1' }, ['--no-refresh-grace']).settings.refreshGrace).toBe(false)
    const negated = readSettings({}, ['--no-code-replay', '--no-models-route']).settings
    expect(negated).toEqual({ codeReplay: false, modelsRoute: false })
    expect(readSettings({ ECHO_DEV_CODE_REPLAY: 'off' }, ['--code-replay', '1']).settings.codeReplay).toBe(true)
  })

  test('--help lists every setting with its variable, and says which are on by default', () => {
    const text = usage()

    expect(SETTING_SOURCES.filter(({ env, flag }) => !text.includes(env) || !text.includes(flag))).toEqual([])
    expect(text).toMatch(/--refresh-grace .*\(default 1; 0: /)
    expect(text).toMatch(/--code-replay .*\(default 1; 0: /)
    expect(text).toMatch(/--models-route .*\(default 0/)
  })

  test('a bad value or an unknown flag is refused with its name', () => {
    expect(() => readSettings({ ECHO_DEV_PORT: 'eighty' }, [])).toThrow(/ECHO_DEV_PORT/)
    expect(() => readSettings({}, ['--port'])).toThrow(/--port needs a value/)
    expect(() => readSettings({}, ['--prot', '1'])).toThrow(/Unknown argument --prot/)
    expect(() => resolveSettings({ accessTtl: 0 })).toThrow(/accessTtl/)
    expect(() => resolveSettings({ port: 70000 })).toThrow(/port/)
    expect(() => resolveSettings({ port: 9000, routerPort: 9000 })).toThrow(/differ/)
    const notBoolean = 'yes' as unknown as boolean
    expect(() => resolveSettings({ codeReplay: notBoolean })).toThrow(/codeReplay must be true or false/)
    expect(() => resolveSettings({ modelsRoute: notBoolean })).toThrow(/modelsRoute must be true or false/)
    expect(() => readSettings({ ECHO_DEV_CODE_REPLAY: 'maybe' }, [])).toThrow(/ECHO_DEV_CODE_REPLAY must be 1 or 0/)
  })

  test('a port in use is reported, and nothing is left listening', async () => {
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const { port } = holder.address() as { port: number }
    try {
      await expect(startDevServer({ port: 0, routerPort: port })).rejects.toThrow(
        new RegExp(`Port ${port} on 127.0.0.1 is in use`),
      )
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  })
})
