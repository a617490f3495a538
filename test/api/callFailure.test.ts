import { describe, expect, it } from 'vitest'

import { callFailure } from '../../src/api/callFailure'
import { EchoError, isAbortError } from '../../src/client'

const call = { path: '/api/v1/balance', action: 'fetching balance' }

function aborted(reason?: unknown): AbortSignal {
  const controller = new AbortController()
  controller.abort(reason)
  return controller.signal
}

describe('callFailure: what a failed call throws', () => {
  it('a call whose signal fired fails as an abort, whatever was thrown meanwhile', () => {
    const error = callFailure(new TypeError('fetch failed'), { ...call, signal: aborted() })
    expect(isAbortError(error)).toBe(true)
    expect(error.toJSON()).toEqual({
      code: 'UNKNOWN_ERROR',
      reason: 'aborted',
      message: 'Request aborted while fetching balance',
      action: 'fetching balance',
    })
  })

  it("a plainly aborted call keeps the signal's own AbortError as its cause", () => {
    const signal = aborted()
    expect(callFailure(new TypeError('fetch failed'), { ...call, signal }).cause).toBe(signal.reason)
  })

  it('a call aborted with a reason of its own fails as an abort, its cause an AbortError that keeps the reason', () => {
    const error = callFailure(new TypeError('fetch failed'), { ...call, signal: aborted('left the page') })
    expect(isAbortError(error)).toBe(true)
    expect(error.message).toBe('Request aborted while fetching balance')
    expect(error.cause).toMatchObject({ name: 'AbortError', message: 'Request aborted', cause: 'left the page' })
  })

  it('a call aborted by a timeout signal fails as an abort, not a network failure', () => {
    const error = callFailure(new TypeError('fetch failed'), {
      ...call,
      signal: aborted(new DOMException('timed out', 'TimeoutError')),
    })
    expect(isAbortError(error)).toBe(true)
    expect(error.code).toBe('UNKNOWN_ERROR')
  })

  it('an abort error thrown while the call signal had not fired is still an abort', () => {
    const error = callFailure(new DOMException('The operation was aborted', 'AbortError'), {
      ...call,
      signal: new AbortController().signal,
    })
    expect(isAbortError(error)).toBe(true)
    expect(error.message).toBe('Request aborted while fetching balance')
  })

  it("echo-rtk's own errors keep their code and status, and gain the action once", () => {
    const own = new EchoError({
      code: 'HTTP_401',
      message: 'Unauthorized',
      statusCode: 401,
      endpoint: '/api/v1/balance',
    })
    expect(callFailure(own, call).toJSON()).toEqual({
      code: 'HTTP_401',
      reason: 'unauthorized',
      message: 'Unauthorized while fetching balance',
      statusCode: 401,
      endpoint: '/api/v1/balance',
      action: 'fetching balance',
      userMessage: 'Echo did not accept your sign-in. Sign in again.',
    })
    const named = new EchoError({ code: 'HTTP_401', message: 'Unauthorized', action: 'refreshing balance' })
    expect(callFailure(named, call)).toBe(named)
  })

  it('anything else thrown is a NETWORK_ERROR naming the path, with what was thrown as its cause', () => {
    const thrown = new TypeError('fetch failed')
    const error = callFailure(thrown, { ...call, signal: null })
    expect(error.toJSON()).toEqual({
      code: 'NETWORK_ERROR',
      reason: 'network',
      message: 'Network error while fetching balance',
      endpoint: '/api/v1/balance',
      action: 'fetching balance',
      userMessage: 'You seem to be offline. Check your connection and try again.',
    })
    expect(error.cause).toBe(thrown)
    expect(callFailure('socket hang up', call).code).toBe('NETWORK_ERROR')
  })
})
