import { describe, expect, it } from 'vitest'

import { EchoError, isAbortError, isInsufficientFunds } from '../src/client'

describe('EchoError', () => {
  it('appends " while <action>" to the message', () => {
    const error = new EchoError({ code: 'NETWORK_ERROR', message: 'Network error', action: 'fetching balance' })
    expect(error.message).toBe('Network error while fetching balance')
    expect(error.name).toBe('EchoError')
    expect(error).toBeInstanceOf(Error)
  })

  it('appends the action once, however many layers an error passes through', () => {
    const inner = EchoError.from(EchoError.network(new TypeError('fetch failed')), 'fetching balance')
    const outer = EchoError.from(EchoError.from(inner, 'refreshing balance'), 'loading the page')
    expect(outer.message).toBe('Network error while fetching balance')
    expect(outer).toBe(inner)
  })

  it('adds an action to an EchoError that has none, keeping its code, status, endpoint and cause', () => {
    const cause = new Error('root')
    const bare = new EchoError({ code: 'HTTP_500', message: 'boom', statusCode: 500, endpoint: '/api/v1/user', cause })
    const named = EchoError.from(bare, 'fetching user')
    expect(named.toJSON()).toEqual({ code: 'HTTP_500', message: 'boom while fetching user', statusCode: 500, endpoint: '/api/v1/user' })
    expect(named.cause).toBe(cause)
  })

  it('comes back from its plain data whole, still counting its action as added', () => {
    const data = EchoError.from(EchoError.network(new TypeError('fetch failed'), '/api/v1/balance'), 'fetching balance').toJSON()
    const revived = EchoError.fromJSON(data)
    expect(revived).toBeInstanceOf(EchoError)
    expect(revived.toJSON()).toEqual(data)
    expect(EchoError.from(revived, 'refreshing balance').message).toBe('Network error while fetching balance')
    expect(EchoError.fromJSON({ code: 'HTTP_500', message: 'boom', statusCode: 500 }).message).toBe('boom')
  })

  it('never adds a second " while " to an error built by hand whose message already names its action', () => {
    const byHand = new EchoError({ code: 'NETWORK_ERROR', message: 'Network error while syncing' })
    expect(byHand.action).toBe('syncing')
    expect(EchoError.from(byHand, 'fetching balance').message).toBe('Network error while syncing')
    // A message that merely ends in " while " names no action.
    expect(EchoError.from(new EchoError({ code: 'UNKNOWN_ERROR', message: 'odd while ' }), 'doing it').message).toBe('odd while  while doing it')
  })

  it('fromJSON takes malformed data without throwing: wrong kinds left out, an unknown code read as UNKNOWN_ERROR', () => {
    const odd = { code: 'TEAPOT', message: 'x', statusCode: '402', endpoint: 7 } as never
    expect(EchoError.fromJSON(odd).toJSON()).toStrictEqual({ code: 'UNKNOWN_ERROR', message: 'x' })
    expect(EchoError.fromJSON({ code: 'HTTP_404', message: 'gone', statusCode: 404, endpoint: '/x' }).toJSON()).toStrictEqual({ code: 'HTTP_404', message: 'gone', statusCode: 404, endpoint: '/x' })
    for (const value of [null, undefined, 42, 'text', [], { message: 7 }]) {
      expect(EchoError.fromJSON(value as never)).toBeInstanceOf(EchoError)
    }
  })

  it('turns anything else into UNKNOWN_ERROR', () => {
    expect(EchoError.from(new RangeError('bad'), 'doing it').toJSON()).toEqual({ code: 'UNKNOWN_ERROR', message: 'bad while doing it' })
    expect(EchoError.from('text', 'doing it').message).toBe('text while doing it')
    expect(EchoError.from({ weird: true }).message).toBe('Unknown error')
  })

  it('is plain data through toJSON and JSON.stringify', () => {
    const error = new EchoError({ code: 'HTTP_402', message: 'Payment required', statusCode: 402, endpoint: '/chat/completions' })
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'HTTP_402', message: 'Payment required', statusCode: 402, endpoint: '/chat/completions' })
    expect(new EchoError({ code: 'UNKNOWN_ERROR', message: 'x' }).toJSON()).toStrictEqual({ code: 'UNKNOWN_ERROR', message: 'x' })
  })

  it('maps a response whose body cannot be read to HTTP_<status> naming the status', async () => {
    const unreadable = new Response(new ReadableStream({ pull: (controller) => controller.error(new Error('reset')) }), { status: 503, statusText: 'Service Unavailable' })
    expect((await EchoError.fromResponse(unreadable, '/api/v1/balance', 'fetching balance')).toJSON()).toEqual({
      code: 'HTTP_503',
      message: 'HTTP 503 Service Unavailable while fetching balance',
      statusCode: 503,
      endpoint: '/api/v1/balance',
    })
  })

  it('maps a response to HTTP_<status> with the body text as message', async () => {
    const error = await EchoError.fromResponse(new Response('<html>No credits</html>', { status: 402 }), '/chat/completions')
    expect(error.toJSON()).toEqual({ code: 'HTTP_402', message: '<html>No credits</html>', statusCode: 402, endpoint: '/chat/completions' })
  })
})

describe('isInsufficientFunds', () => {
  it('is true for a 402, as an error or as its plain data', async () => {
    const error = await EchoError.fromResponse(new Response('', { status: 402 }))
    expect(isInsufficientFunds(error)).toBe(true)
    expect(isInsufficientFunds(error.toJSON())).toBe(true)
  })

  it("is true for other clients' errors that carry the status as status (openai, @google/genai)", () => {
    expect(isInsufficientFunds(Object.assign(new Error('402 Payment Required'), { status: 402 }))).toBe(true)
    expect(isInsufficientFunds({ status: 402 })).toBe(true)
    expect(isInsufficientFunds({ status: '402' })).toBe(false)
    expect(isInsufficientFunds({ statusCode: 401, status: 402 })).toBe(false)
  })

  it('is false for anything else', () => {
    expect(isInsufficientFunds(new EchoError({ code: 'HTTP_401', message: 'x', statusCode: 401 }))).toBe(false)
    expect(isInsufficientFunds(null)).toBe(false)
    expect(isInsufficientFunds('402')).toBe(false)
  })
})

describe('isAbortError', () => {
  it('tells an aborted call from a failed one', () => {
    const aborted = EchoError.from(new DOMException('aborted', 'AbortError'), 'fetching balance')
    expect(aborted.toJSON()).toEqual({ code: 'UNKNOWN_ERROR', message: 'Request aborted while fetching balance' })
    expect(isAbortError(aborted)).toBe(true)
    expect(isAbortError(EchoError.network(new TypeError('fetch failed')))).toBe(false)
  })
})
