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
    expect(named.toJSON()).toEqual({
      code: 'HTTP_500',
      reason: 'http',
      message: 'boom while fetching user',
      statusCode: 500,
      endpoint: '/api/v1/user',
      action: 'fetching user',
    })
    expect(named.cause).toBe(cause)
  })

  it('comes back from its plain data whole, still counting its action as added', () => {
    const data = EchoError.from(
      EchoError.network(new TypeError('fetch failed'), '/api/v1/balance'),
      'fetching balance',
    ).toJSON()
    const revived = EchoError.fromJSON(data)
    expect(revived).toBeInstanceOf(EchoError)
    expect(revived.toJSON()).toEqual(data)
    expect(EchoError.from(revived, 'refreshing balance').message).toBe('Network error while fetching balance')
    expect(EchoError.fromJSON({ code: 'HTTP_500', reason: 'http', message: 'boom', statusCode: 500 }).message).toBe(
      'boom',
    )
  })

  it('keeps its action as a field, never read back out of the message: given once, it is added once', () => {
    const named = new EchoError({ code: 'NETWORK_ERROR', message: 'Network error', action: 'syncing' })
    expect(named.action).toBe('syncing')
    expect(EchoError.from(named, 'fetching balance').message).toBe('Network error while syncing')
    // Words in a message are only words: " while " in the text names no action.
    const wordy = new EchoError({ code: 'UNKNOWN_ERROR', message: 'Timed out while syncing' })
    expect(wordy.action).toBeUndefined()
    expect(EchoError.from(wordy, 'doing it').message).toBe('Timed out while syncing while doing it')
  })

  it('comes back from plain data with its action as a field, even when the message has " while " of its own', () => {
    const data = new EchoError({
      code: 'HTTP_500',
      message: 'Failed while saving',
      action: 'fetching balance',
    }).toJSON()
    expect(data).toEqual({
      code: 'HTTP_500',
      reason: 'http',
      message: 'Failed while saving while fetching balance',
      action: 'fetching balance',
    })
    const revived = EchoError.fromJSON(data)
    expect(revived.action).toBe('fetching balance')
    expect(revived.message).toBe('Failed while saving while fetching balance')
    expect(EchoError.from(revived, 'other').message).toBe('Failed while saving while fetching balance')
  })

  it('has a reason to branch on: the one given, else what its code says', () => {
    expect(new EchoError({ code: 'HTTP_401', message: 'x' }).reason).toBe('unauthorized')
    expect(new EchoError({ code: 'HTTP_402', message: 'x' }).reason).toBe('insufficient-funds')
    expect(new EchoError({ code: 'HTTP_503', message: 'x' }).reason).toBe('http')
    expect(new EchoError({ code: 'NETWORK_ERROR', message: 'x' }).reason).toBe('network')
    expect(new EchoError({ code: 'UNKNOWN_ERROR', message: 'x' }).reason).toBe('unknown')
    expect(
      new EchoError({ code: 'UNKNOWN_ERROR', reason: 'not-authenticated', message: 'Not authenticated' }).reason,
    ).toBe('not-authenticated')
    expect(EchoError.from(Object.assign(new Error('stop'), { name: 'AbortError' })).reason).toBe('aborted')
  })

  it('fromJSON keeps a known reason and reads a missing or unknown one as its code says', () => {
    expect(
      EchoError.fromJSON({
        code: 'UNKNOWN_ERROR',
        reason: 'session-ended',
        message: 'Your session has ended. Sign in again.',
      }).reason,
    ).toBe('session-ended')
    expect(EchoError.fromJSON({ code: 'HTTP_402', message: 'x' } as never).reason).toBe('insufficient-funds')
    expect(EchoError.fromJSON({ code: 'HTTP_402', reason: 'broke', message: 'x' } as never).reason).toBe(
      'insufficient-funds',
    )
  })

  it('fromJSON takes malformed data without throwing: wrong kinds left out, an unknown code read as UNKNOWN_ERROR', () => {
    const odd = { code: 'TEAPOT', message: 'x', statusCode: '402', endpoint: 7 } as never
    expect(EchoError.fromJSON(odd).toJSON()).toStrictEqual({ code: 'UNKNOWN_ERROR', reason: 'unknown', message: 'x' })
    expect(
      EchoError.fromJSON({
        code: 'HTTP_404',
        reason: 'http',
        message: 'gone',
        statusCode: 404,
        endpoint: '/x',
      }).toJSON(),
    ).toStrictEqual({
      code: 'HTTP_404',
      reason: 'http',
      message: 'gone',
      statusCode: 404,
      endpoint: '/x',
    })
    for (const value of [null, undefined, 42, 'text', [], { message: 7 }]) {
      expect(EchoError.fromJSON(value as never)).toBeInstanceOf(EchoError)
    }
  })

  it('an EchoError made without a cause carries none, so logs show none', () => {
    expect(new EchoError({ code: 'UNKNOWN_ERROR', message: 'x' })).not.toHaveProperty('cause')
  })

  it('an EchoError without an action comes back from EchoError.from as the very same error, its stack included', () => {
    const bare = new EchoError({ code: 'HTTP_500', message: 'boom', statusCode: 500 })
    expect(EchoError.from(bare)).toBe(bare)
  })

  it('fromJSON reads a code that is not text as UNKNOWN_ERROR, even one that turns into a catalogue code as text', () => {
    expect(EchoError.fromJSON({ code: ['HTTP_404'], message: 'gone' } as never).code).toBe('UNKNOWN_ERROR')
    expect(EchoError.fromJSON({ code: 404, message: 'gone' } as never).code).toBe('UNKNOWN_ERROR')
  })

  it('fromJSON keeps exactly the catalogue codes, and reads a near miss as UNKNOWN_ERROR', () => {
    for (const code of ['NETWORK_ERROR', 'UNKNOWN_ERROR', 'HTTP_402'])
      expect(EchoError.fromJSON({ code, message: 'x' } as never).code).toBe(code)
    for (const code of ['HTTP_40', 'HTTP_4020', 'HTTP_abc', 'A_NETWORK_ERROR', 'NETWORK_ERRORS', 'http_402']) {
      expect(EchoError.fromJSON({ code, message: 'x' } as never).code).toBe('UNKNOWN_ERROR')
    }
  })

  it('fromJSON of something that is not error data (null, text) reads it as EchoError.from would', () => {
    expect(EchoError.fromJSON(null as never).toJSON()).toEqual({
      code: 'UNKNOWN_ERROR',
      reason: 'unknown',
      message: 'Unknown error',
    })
    expect(EchoError.fromJSON('socket hang up' as never).toJSON()).toEqual({
      code: 'UNKNOWN_ERROR',
      reason: 'unknown',
      message: 'socket hang up',
    })
  })

  it('maps an empty answer to HTTP_<status> named by its status and status text', async () => {
    expect((await EchoError.fromResponse(new Response('', { status: 404, statusText: 'Not Found' }))).message).toBe(
      'HTTP 404 Not Found',
    )
    expect((await EchoError.fromResponse(new Response(null, { status: 500 }))).message).toBe('HTTP 500')
  })

  it('turns anything else into UNKNOWN_ERROR', () => {
    expect(EchoError.from(new RangeError('bad'), 'doing it').toJSON()).toEqual({
      code: 'UNKNOWN_ERROR',
      reason: 'unknown',
      message: 'bad while doing it',
      action: 'doing it',
    })
    expect(EchoError.from('text', 'doing it').message).toBe('text while doing it')
    expect(EchoError.from({ weird: true }).message).toBe('Unknown error')
  })

  it('is plain data through toJSON and JSON.stringify', () => {
    const error = new EchoError({
      code: 'HTTP_402',
      message: 'Payment required',
      statusCode: 402,
      endpoint: '/chat/completions',
    })
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: 'HTTP_402',
      reason: 'insufficient-funds',
      message: 'Payment required',
      statusCode: 402,
      endpoint: '/chat/completions',
      userMessage: 'You are out of credits. Add credits to keep going.',
    })
    expect(new EchoError({ code: 'UNKNOWN_ERROR', message: 'x' }).toJSON()).toStrictEqual({
      code: 'UNKNOWN_ERROR',
      reason: 'unknown',
      message: 'x',
    })
  })

  it('maps a response whose body cannot be read to HTTP_<status> naming the status', async () => {
    const unreadable = new Response(
      new ReadableStream({ pull: (controller) => controller.error(new Error('reset')) }),
      { status: 503, statusText: 'Service Unavailable' },
    )
    expect(
      (await EchoError.fromResponse(unreadable, { endpoint: '/api/v1/balance', action: 'fetching balance' })).toJSON(),
    ).toEqual({
      code: 'HTTP_503',
      reason: 'http',
      message: 'HTTP 503 Service Unavailable while fetching balance',
      statusCode: 503,
      endpoint: '/api/v1/balance',
      action: 'fetching balance',
    })
  })

  it('maps a response to HTTP_<status> with the body text as message, and the text of a page as the sentence for the user', async () => {
    const error = await EchoError.fromResponse(new Response('<html>Ledger down</html>', { status: 503 }), {
      endpoint: '/api/v1/balance',
    })
    expect(error.toJSON()).toEqual({
      code: 'HTTP_503',
      reason: 'http',
      message: '<html>Ledger down</html>',
      statusCode: 503,
      endpoint: '/api/v1/balance',
      userMessage: 'Ledger down',
    })
  })

  it.each([
    ['not-authenticated', 'You are signed out. Sign in to keep going.'],
    ['session-ended', 'Your session has ended. Sign in again.'],
    ['unauthorized', 'Echo did not accept your sign-in. Sign in again.'],
    ['insufficient-funds', 'You are out of credits. Add credits to keep going.'],
    ['spend-limit', "Today's limit for this app is reached. Raise it to keep going."],
    ['network', 'You seem to be offline. Check your connection and try again.'],
    ['echo-unreachable', 'Echo cannot be reached right now. Try again in a moment.'],
    ['refresh-timeout', 'Echo cannot be reached right now. Try again in a moment.'],
    ['popup-closed', 'The sign-in window was closed before signing in.'],
    ['popup-blocked', 'The browser blocked the sign-in window: allow pop-ups for this site, or sign in again.'],
    ['popup-timeout', 'The sign-in window did not answer in time. Try again.'],
  ] as const)(
    'says a %s to a person in their words, whatever the call and whatever Echo answered',
    (reason, sentence) => {
      const error = new EchoError({
        code: 'UNKNOWN_ERROR',
        reason,
        message: 'Not for people',
        userMessage: '{"error":"raw"}',
        action: 'fetching balance',
      })
      expect(error.userMessage).toBe(sentence)
      expect(error.message).toBe('Not for people while fetching balance')
      expect(EchoError.fromJSON(error.toJSON()).userMessage).toBe(sentence)
    },
  )

  it("keeps Echo's own words, with the action, for the reasons only a developer meets", () => {
    const error = new EchoError({
      code: 'HTTP_500',
      message: '{"message":"boom"}',
      userMessage: 'boom',
      action: 'fetching app',
    })
    expect(error.userMessage).toBe('boom while fetching app')
    expect(new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-argument', message: 'Bad amount' }).userMessage).toBe(
      'Bad amount',
    )
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

describe('isInsufficientFunds, for errors from other clients and odd values', () => {
  it("is true for the AI SDK's APICallError, which carries the status as statusCode", () => {
    expect(isInsufficientFunds(Object.assign(new Error('Payment Required'), { statusCode: 402 }))).toBe(true)
  })

  it('is false, and never throws, for nothing at all', () => {
    expect(isInsufficientFunds(undefined)).toBe(false)
    expect(isInsufficientFunds(402)).toBe(false)
  })
})

describe('isAbortError', () => {
  it('tells an aborted call from a failed one', () => {
    const aborted = EchoError.from(new DOMException('aborted', 'AbortError'), 'fetching balance')
    expect(aborted.toJSON()).toEqual({
      code: 'UNKNOWN_ERROR',
      reason: 'aborted',
      message: 'Request aborted while fetching balance',
      action: 'fetching balance',
    })
    expect(isAbortError(aborted)).toBe(true)
    expect(isAbortError(EchoError.network(new TypeError('fetch failed')))).toBe(false)
  })
})
