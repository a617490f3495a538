import { describe, expect, it } from 'vitest'

import * as client from '../src/client'

describe('echo-rtk/client', () => {
  it('exports exactly its public names (a change here is a change of the public API)', () => {
    expect(Object.keys(client).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_API_URL",
        "DEFAULT_PAYMENT_DESCRIPTION",
        "DEFAULT_ROUTER_URL",
        "DEFAULT_SCOPE",
        "EchoClient",
        "EchoError",
        "createEchoFetch",
        "createEchoRouter",
        "isAbortError",
        "isInsufficientFunds",
        "resolveConfig",
        "userMessageOf",
      ]
    `)
  })

  it('loads without a DOM, React or Redux', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    expect(new client.EchoClient({ apiKey: 'k' })).toBeInstanceOf(client.EchoClient)
  })
})
