import { describe, expect, it } from 'vitest'

import * as server from '../src/server'

describe('echo-rtk/server', () => {
  it('exports exactly its public names (a change here is a change of the public API)', () => {
    expect(Object.keys(server).sort()).toMatchInlineSnapshot(`
      [
        "EchoError",
        "createEchoServer",
        "isInsufficientFunds",
      ]
    `)
  })

  it('loads without a DOM, React or Redux', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    expect(typeof server.createEchoServer({ appId: 'app', apiUrl: 'https://echo.test' }).route).toBe('function')
  })
})
