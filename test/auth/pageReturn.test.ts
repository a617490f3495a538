import { describe, expect, it } from 'vitest'

import { readSignInCallback, takeSignInCallback, withoutSignInParams } from '../../src/auth/pageReturn'
import { POPUP_REQUEST_TYPE } from '../../src/auth/storedUser'
import { memoryStorage } from '../support/memoryStorage'

const APP_ID = '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50'

/** A page at `href` whose storage holds the sign-in states `states` (state → request type). */
function page(href: string, states: Record<string, string> = {}) {
  const entries = Object.fromEntries(
    Object.entries(states).map(([id, requestType]) => [
      `oidc.${id}`,
      JSON.stringify({ id, client_id: APP_ID, request_type: requestType }),
    ]),
  )
  const addresses: string[] = []
  const history = {
    state: { page: 1 },
    replaceState: (_data: unknown, _unused: string, url?: string | URL | null) => void addresses.push(String(url)),
  }
  return { env: { location: { href }, history, storage: memoryStorage(entries) }, addresses }
}

describe('a sign-in coming back in the address bar', () => {
  it('a code with its state is a sign-in coming back', () => {
    expect(readSignInCallback('http://localhost:3000/?code=c1&state=s1')).toEqual({ kind: 'code', state: 's1' })
  })

  it('an error with its state is a sign-in coming back, with its description when Echo gave one', () => {
    expect(
      readSignInCallback('http://localhost:3000/?error=access_denied&error_description=No%20thanks&state=s1'),
    ).toEqual({ kind: 'error', state: 's1', error: 'access_denied', description: 'No thanks' })
  })

  it('a code without a state is no sign-in coming back: the app may use `code` itself', () => {
    expect(readSignInCallback('http://localhost:3000/?code=c1')).toBeNull()
    expect(readSignInCallback('http://localhost:3000/?code=c1&error=x')).toBeNull()
  })

  it('a state with neither a code nor an error is no sign-in coming back', () => {
    expect(readSignInCallback('http://localhost:3000/?state=s1')).toBeNull()
    expect(readSignInCallback('http://localhost:3000/?state=s1&=c1')).toBeNull()
  })

  it("the address without the sign-in's parameters keeps every other parameter and the hash", () => {
    const href =
      'http://localhost:3000/chat?tab=2&code=c1&state=s1&session_state=ss&iss=https%3A%2F%2Fecho.test' +
      '&error=e&error_description=d&error_uri=u&draft=hi#end'
    expect(withoutSignInParams(href)).toBe('http://localhost:3000/chat?tab=2&draft=hi#end')
  })

  it('is taken out of the address bar when this app started it, the history entry kept', () => {
    const { env, addresses } = page(
      'http://localhost:3000/chat?code=c1&state=s1&iss=https%3A%2F%2Fecho.test&tab=2#end',
      {
        s1: 'si:r',
      },
    )
    expect(takeSignInCallback(env, APP_ID)).toEqual({
      kind: 'code',
      state: 's1',
      href: 'http://localhost:3000/chat?code=c1&state=s1&iss=https%3A%2F%2Fecho.test&tab=2#end',
      popup: false,
    })
    expect(addresses).toEqual(['http://localhost:3000/chat?tab=2#end'])
  })

  it('says whether the sign-in was started in a popup window', () => {
    const { env } = page('http://localhost:3000/?code=c1&state=s1', { s1: POPUP_REQUEST_TYPE })
    expect(takeSignInCallback(env, APP_ID)?.popup).toBe(true)
  })

  it("is left in the address bar when its state is not one this app stored: the parameters are the app's own", () => {
    const { env, addresses } = page('http://localhost:3000/?code=c1&state=unknown', { s1: 'si:r' })
    expect(takeSignInCallback(env, APP_ID)).toBeNull()
    expect(addresses).toEqual([])
  })
})
