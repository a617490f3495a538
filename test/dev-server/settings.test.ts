import { createServer } from 'node:net'

import { describe, expect, test } from 'vitest'

import { DEFAULT_SETTINGS, readSettings, resolveSettings } from '../../dev-server/settings.mjs'
import { startDevServer } from '../../dev-server/startDevServer.mjs'

describe('the settings contract (environment variables and flags)', () => {
  test('the defaults: 8787, 8788, 900 s tokens, no auto-login, 30 ms between chunks, $10, no refresh-token grace', () => {
    expect(resolveSettings()).toEqual({ port: 8787, routerPort: 8788, accessTtl: 900, autoLogin: false, streamDelayMs: 30, balance: 10, refreshGrace: false })
    expect(DEFAULT_SETTINGS.port).toBe(8787)
  })

  test('every environment variable is read', () => {
    const { settings } = readSettings(
      { ECHO_DEV_PORT: '9000', ECHO_DEV_ROUTER_PORT: '9001', ECHO_DEV_ACCESS_TTL: '15', ECHO_DEV_AUTO_LOGIN: '1', ECHO_DEV_STREAM_DELAY: '5', ECHO_DEV_BALANCE: '0.5', ECHO_DEV_REFRESH_GRACE: '1' },
      [],
    )

    expect(settings).toEqual({ port: 9000, routerPort: 9001, accessTtl: 15, autoLogin: true, streamDelayMs: 5, balance: 0.5, refreshGrace: true })
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
    ])

    expect(settings).toEqual({ port: 8000, routerPort: 8001, accessTtl: 15, autoLogin: true, streamDelayMs: 0, balance: 2, refreshGrace: true })
  })

  test('--auto-login takes an optional 1 or 0; ECHO_DEV_AUTO_LOGIN=0 is off', () => {
    expect(readSettings({}, ['--auto-login', '0']).settings.autoLogin).toBe(false)
    expect(readSettings({}, ['--auto-login=1', '--port', '1']).settings).toEqual({ autoLogin: true, port: 1 })
    expect(readSettings({ ECHO_DEV_AUTO_LOGIN: '0' }, []).settings.autoLogin).toBe(false)
    expect(readSettings({}, ['--help']).help).toBe(true)
    expect(readSettings({ ECHO_DEV_REFRESH_GRACE: '1' }, ['--no-refresh-grace']).settings.refreshGrace).toBe(false)
  })

  test('a bad value or an unknown flag is refused with its name', () => {
    expect(() => readSettings({ ECHO_DEV_PORT: 'eighty' }, [])).toThrow(/ECHO_DEV_PORT/)
    expect(() => readSettings({}, ['--port'])).toThrow(/--port needs a value/)
    expect(() => readSettings({}, ['--prot', '1'])).toThrow(/Unknown argument --prot/)
    expect(() => resolveSettings({ accessTtl: 0 })).toThrow(/accessTtl/)
    expect(() => resolveSettings({ port: 70000 })).toThrow(/port/)
    expect(() => resolveSettings({ port: 9000, routerPort: 9000 })).toThrow(/differ/)
  })

  test('a port in use is reported, and nothing is left listening', async () => {
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const { port } = holder.address() as { port: number }
    try {
      await expect(startDevServer({ port: 0, routerPort: port })).rejects.toThrow(new RegExp(`Port ${port} on 127.0.0.1 is in use`))
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  })
})
