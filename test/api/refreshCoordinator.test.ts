import { afterEach, describe, expect, it, vi } from 'vitest'

import { RefreshCoordinator } from '../../src/api/refreshCoordinator'
import { EchoError } from '../../src/errors'
import type { TokenProvider } from '../../src/client'
import { rotatingTokens } from '../support/tokens'

/** Lets every promise callback that can run now run: whatever is still pending is waiting for something. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A token source whose refresh waits until the test finishes it, with the new token or a failure. */
function heldTokens(first: string | null = 'token-1') {
  let current = first
  let pending: { resolve: (token: string | void) => void; reject: (error: unknown) => void } | undefined
  const refreshErrors: Error[] = []
  let refreshCalls = 0
  const provider: TokenProvider = {
    getAccessToken: () => Promise.resolve(current),
    refreshToken: () => {
      refreshCalls += 1
      return new Promise<string | void>((resolve, reject) => (pending = { resolve, reject }))
    },
    onRefreshError: (error) => refreshErrors.push(error),
  }
  return {
    provider,
    refreshErrors,
    refreshCalls: () => refreshCalls,
    /** Ends the running refresh: the source now holds `token`, and the refresh resolves to `returned`. */
    finish(token: string | null, returned: string | void = token ?? undefined) {
      current = token
      pending?.resolve(returned)
    },
    fail(reason: unknown) {
      pending?.reject(reason)
    },
  }
}

/** A token source whose every refresh fails with `reason`, leaving the token as it was. */
function failingTokens(reason: unknown, current: () => string | null = () => 'token-1') {
  const refreshErrors: Error[] = []
  let refreshCalls = 0
  const provider: TokenProvider = {
    getAccessToken: () => Promise.resolve(current()),
    refreshToken: () => {
      refreshCalls += 1
      // A provider may reject with anything, not only an Error.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(reason)
    },
    onRefreshError: (error) => refreshErrors.push(error),
  }
  return { provider, refreshErrors, refreshCalls: () => refreshCalls }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('one refresh for everyone rejected with the same token', () => {
  it('callers rejected with the same token at once share one refresh and all get its new token', async () => {
    const { provider, state } = rotatingTokens()
    const coordinator = new RefreshCoordinator(provider)
    const tokens = await Promise.all([
      coordinator.tokenAfter('token-1'),
      coordinator.tokenAfter('token-1'),
      coordinator.tokenAfter('token-1'),
    ])
    expect(tokens).toEqual(['token-2', 'token-2', 'token-2'])
    expect(state.refreshCalls).toBe(1)
  })

  it('a caller whose token was already replaced elsewhere gets the new one and sends no second refresh', async () => {
    const { provider, state } = rotatingTokens()
    const coordinator = new RefreshCoordinator(provider)
    state.current = 'token-from-another-tab'
    expect(await coordinator.tokenAfter('token-1')).toBe('token-from-another-tab')
    expect(state.refreshCalls).toBe(0)
  })

  it('a caller rejected with the token a finished refresh replaced gets the new one without refreshing again', async () => {
    const { provider, state } = rotatingTokens()
    const coordinator = new RefreshCoordinator(provider)
    expect(await coordinator.tokenAfter('token-1')).toBe('token-2')
    expect(await coordinator.tokenAfter('token-1')).toBe('token-2')
    expect(state.refreshCalls).toBe(1)
  })

  it('a caller rejected with the new token refreshes again: the last refresh does not answer for another token', async () => {
    const { provider, state } = rotatingTokens()
    const coordinator = new RefreshCoordinator(provider)
    await coordinator.tokenAfter('token-1')
    expect(await coordinator.tokenAfter('token-2')).toBe('token-3')
    expect(state.refreshCalls).toBe(2)
  })

  it('callers rejected with the same token after a failed refresh get the same failure, with no second refresh', async () => {
    const failure = new Error('invalid_grant')
    const { provider, refreshErrors, refreshCalls } = failingTokens(failure)
    const coordinator = new RefreshCoordinator(provider)
    await expect(coordinator.tokenAfter('token-1')).rejects.toBe(failure)
    await expect(coordinator.tokenAfter('token-1')).rejects.toBe(failure)
    expect(refreshCalls()).toBe(1)
    expect(refreshErrors).toEqual([failure])
  })

  it('a refresh that could not reach the server (NETWORK_ERROR) fails everyone waiting on it, and the next caller tries again', async () => {
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider)
    const waiting = [coordinator.tokenAfter('token-1'), coordinator.tokenAfter('token-1')].map((waiter) =>
      waiter.catch((e: unknown) => e),
    )
    await settle()
    const offline = new EchoError({ code: 'NETWORK_ERROR', message: 'Echo could not be reached' })
    held.fail(offline)
    expect(await Promise.all(waiting)).toEqual([offline, offline])
    expect(held.refreshCalls()).toBe(1)
    const next = coordinator.tokenAfter('token-1')
    await settle()
    expect(held.refreshCalls()).toBe(2)
    held.finish('token-2')
    expect(await next).toBe('token-2')
  })

  it('the coordinator of a token source is one per source, and a coordinator is its own', () => {
    const { provider } = rotatingTokens()
    const coordinator = RefreshCoordinator.for(provider)
    expect(RefreshCoordinator.for(provider)).toBe(coordinator)
    expect(RefreshCoordinator.for(coordinator)).toBe(coordinator)
    expect(RefreshCoordinator.for(rotatingTokens().provider)).not.toBe(coordinator)
  })

  it('reads the current token from its source', async () => {
    const { provider, state } = rotatingTokens('abc')
    const coordinator = new RefreshCoordinator(provider)
    expect(await coordinator.getAccessToken()).toBe('abc')
    state.current = null
    expect(await coordinator.getAccessToken()).toBeNull()
  })
})

describe('requests and a running refresh', () => {
  it('a request that finds a refresh running waits for it, and goes once the new token is in', async () => {
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider)
    const refreshed = coordinator.tokenAfter('token-1')
    let isIdle = false
    const idle = coordinator.waitForIdle().then(() => (isIdle = true))
    await settle()
    expect(coordinator.isRefreshing).toBe(true)
    expect(isIdle).toBe(false)
    held.finish('token-2')
    await idle
    expect(await refreshed).toBe('token-2')
    expect(coordinator.isRefreshing).toBe(false)
  })

  it('a request that finds no refresh running goes at once', async () => {
    const coordinator = new RefreshCoordinator(rotatingTokens().provider)
    expect(coordinator.isRefreshing).toBe(false)
    await expect(coordinator.waitForIdle()).resolves.toBeUndefined()
  })

  it('a request aborted while it waits for a refresh stops waiting; the refresh goes on', async () => {
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider)
    const refreshed = coordinator.tokenAfter('token-1')
    const controller = new AbortController()
    const waiting = coordinator.waitForIdle(controller.signal)
    controller.abort(new Error('left the page'))
    await expect(waiting).rejects.toThrow('left the page')
    expect(coordinator.isRefreshing).toBe(true)
    held.finish('token-2')
    expect(await refreshed).toBe('token-2')
  })

  it('a caller that aborts while it waits its turn starts no refresh when its turn comes', async () => {
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider)
    const first = coordinator.tokenAfter('token-1')
    const controller = new AbortController()
    // Its token is the one the running refresh brings: only the abort keeps it from refreshing in its turn.
    const queued = coordinator.tokenAfter('token-2', controller.signal)
    controller.abort()
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' })
    held.finish('token-2')
    expect(await first).toBe('token-2')
    await coordinator.waitForIdle()
    expect(held.refreshCalls()).toBe(1)
  })
})

describe('what a refresh yields', () => {
  it('refreshToken() refreshes the current token and resolves to the new one', async () => {
    const { provider, state } = rotatingTokens()
    const coordinator = new RefreshCoordinator(provider)
    expect(await coordinator.refreshToken()).toBe('token-2')
    expect(state.refreshCalls).toBe(1)
  })

  it('the token the refresh resolves to is handed out, even before the source has stored it', async () => {
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider)
    const refreshed = coordinator.tokenAfter('token-1')
    await settle()
    held.finish('token-1', 'token-2')
    expect(await refreshed).toBe('token-2')
  })

  it('a refresh that resolves to nothing hands out the token the source now holds', async () => {
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider)
    const refreshed = coordinator.tokenAfter('token-1')
    await settle()
    held.finish('token-2', undefined)
    expect(await refreshed).toBe('token-2')
  })

  it('a refresh that resolves to an empty string hands out the token the source now holds', async () => {
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider)
    const refreshed = coordinator.tokenAfter('token-1')
    await settle()
    held.finish('token-2', '')
    expect(await refreshed).toBe('token-2')
  })

  it('a refresh that leaves the same token is a failure, reported once', async () => {
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider)
    const refreshed = coordinator.tokenAfter('token-1')
    await settle()
    held.finish('token-1')
    await expect(refreshed).rejects.toThrow('Silent renew did not yield a new access token')
    expect(held.refreshErrors.map((error) => error.message)).toEqual(['Silent renew did not yield a new access token'])
  })

  it('a refresh after which nobody is signed in (a sign-out mid-flight) is a failure', async () => {
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider)
    const refreshed = coordinator.tokenAfter('token-1')
    await settle()
    held.finish(null)
    await expect(refreshed).rejects.toThrow('Silent renew did not yield a new access token')
  })

  it('a caller whose user signed out before its turn gets no null token: the refresh decides, and its failure is shared', async () => {
    const failure = new Error('No signed-in user')
    const { provider, refreshCalls } = failingTokens(failure, () => null)
    const coordinator = new RefreshCoordinator(provider)
    await expect(coordinator.tokenAfter('token-1')).rejects.toBe(failure)
    expect(refreshCalls()).toBe(1)
  })

  it('a refresh that throws at once fails like one that rejects', async () => {
    const refreshErrors: Error[] = []
    const provider: TokenProvider = {
      getAccessToken: () => Promise.resolve('token-1'),
      refreshToken: () => {
        throw new Error('storage is unavailable')
      },
      onRefreshError: (error) => refreshErrors.push(error),
    }
    const coordinator = new RefreshCoordinator(provider)
    await expect(coordinator.tokenAfter('token-1')).rejects.toThrow('storage is unavailable')
    expect(refreshErrors.map((error) => error.message)).toEqual(['storage is unavailable'])
  })

  it('a refresh that fails with something other than an Error is reported and thrown as an Error with its text', async () => {
    const { provider, refreshErrors } = failingTokens('invalid_grant')
    const coordinator = new RefreshCoordinator(provider)
    const error = await coordinator.tokenAfter('token-1').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe('invalid_grant')
    expect(refreshErrors).toEqual([error])
  })

  it('a source without onRefreshError still fails its waiters with the refresh error', async () => {
    const provider: TokenProvider = {
      getAccessToken: () => Promise.resolve('token-1'),
      refreshToken: () => Promise.reject(new Error('invalid_grant')),
    }
    await expect(new RefreshCoordinator(provider).tokenAfter('token-1')).rejects.toThrow('invalid_grant')
  })

  it('a refresh that outlasts refreshTimeoutMs fails every waiter, and no sooner', async () => {
    vi.useFakeTimers()
    const held = heldTokens()
    const coordinator = new RefreshCoordinator(held.provider, { refreshTimeoutMs: 500 })
    const outcomes = [coordinator.tokenAfter('token-1'), coordinator.tokenAfter('token-1')].map((waiter) =>
      waiter.catch((e: unknown) => e),
    )
    await vi.advanceTimersByTimeAsync(499)
    expect(held.refreshErrors).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    for (const outcome of await Promise.all(outcomes))
      expect(outcome).toMatchObject({
        code: 'NETWORK_ERROR',
        reason: 'refresh-timeout',
        message: 'Token refresh timed out after 0.5 seconds',
      })
    expect(held.refreshErrors).toHaveLength(1)
  })
})
