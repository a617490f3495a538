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
    expect(
      typeof server.createEchoServer({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f57', apiUrl: 'https://echo.test' })
        .route,
    ).toBe('function')
  })
})
