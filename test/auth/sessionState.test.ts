// Every transition of the session's state (`nextState`, the rule `EchoSession`'s one `#dispatch`
// applies): for each state and each event that can reach it, where the session stands next. Then
// when its one timer fires: the renew, and the next try while Echo cannot be reached.
import { describe, expect, it } from 'vitest'

import {
  isRenewDue,
  MAX_TIMER_DELAY_MS,
  nextState,
  reconnectDelayMs,
  RECONNECT_DELAYS_MS,
  renewAtMs,
  renewTimerDelayMs,
  type SessionEvent,
  type SessionState,
} from '../../src/auth/sessionState'
import type { StoredUser } from '../../src/auth/storedUser'

const NOW = 1_800_000_000_000
const ada = (accessToken: string, expiresInS = 900): StoredUser => ({
  access_token: accessToken,
  refresh_token: `refresh-${accessToken}`,
  token_type: 'Bearer',
  profile: { sub: 'user-ada', email: 'ada@example.com' },
  expires_at: NOW / 1000 + expiresInS,
})
const grace = { ...ada('g1'), profile: { sub: 'user-grace', email: 'grace@example.com' } }

const idle: SessionState = { phase: 'idle' }
const handingOver: SessionState = { phase: 'handingOver' }
const signedOut: SessionState = { phase: 'signedOut', byTab: false }
const signedOutByTab: SessionState = { phase: 'signedOut', byTab: true }
const signingIn: SessionState = { phase: 'signingIn' }
const restoring: SessionState = { phase: 'restoring', user: ada('expired', -60) }
const signedIn: SessionState = {
  phase: 'signedIn',
  user: ada('a1'),
  userId: 'user-ada',
  expiresAt: NOW + 900_000,
  lifetimeMs: 900_000,
  failures: 0,
}
const reconnecting: SessionState = { ...signedIn, failures: 2 }

const ERROR = { code: 'UNKNOWN_ERROR' as const, reason: 'sign-in-refused' as const, message: 'Sign-in was refused' }
const next = (state: SessionState, event: SessionEvent) => nextState(state, event, NOW)

describe('the session at start-up', () => {
  it('a popup page with a sign-in coming back hands it over and runs nothing of its own', () => {
    expect(next(idle, { type: 'handOverStarted' })).toEqual(handingOver)
  })

  it('a hand-over no opener takes leaves the page to start as after a redirect', () => {
    expect(next(handingOver, { type: 'handOverDeclined' })).toEqual(idle)
  })

  it('an expired stored user is held for the one renew, the store not told yet', () => {
    expect(next(idle, { type: 'restored', user: ada('expired', -60) })).toEqual(restoring)
  })

  it('a valid stored user is signed in at once, with the token life counted from now', () => {
    expect(
      next(idle, { type: 'tokensTaken', user: ada('a1'), arrivedBy: 'storage', cause: { by: 'storage' } }),
    ).toEqual(signedIn)
  })

  it('nobody stored: signed out', () => {
    expect(next(idle, { type: 'signedOut', cause: { by: 'user' } })).toEqual(signedOut)
  })

  it('a sign-in coming back starts signing in; Echo refusing it leaves nobody signed in', () => {
    expect(next(idle, { type: 'signInStarted', inWindow: false })).toEqual(signingIn)
    expect(next(idle, { type: 'signInFailed', error: ERROR, arrivedBy: 'callback' })).toEqual(signedOut)
  })
})

describe('restoring an expired user', () => {
  it('renewed: signed in', () => {
    expect(
      next(restoring, { type: 'tokensTaken', user: ada('a1'), arrivedBy: 'storage', cause: { by: 'storage' } }),
    ).toEqual(signedIn)
  })

  it('Echo refused: signed out', () => {
    expect(next(restoring, { type: 'signedOut', cause: { by: 'echo', error: 'invalid_grant' }, ended: ERROR })).toEqual(
      signedOut,
    )
  })

  it('a refresh starting changes nothing', () => {
    expect(next(restoring, { type: 'tokenRefreshStarted', cause: { by: 'renew-timer' } })).toBe(restoring)
  })

  it('another tab signed out meanwhile: signed out, waiting for its word on why', () => {
    expect(next(restoring, { type: 'signedOut', cause: { by: 'tab' } })).toEqual(signedOutByTab)
  })
})

describe('signed in', () => {
  it('renewed tokens of the same user: still signed in, the new token and its life taken', () => {
    expect(
      next(signedIn, { type: 'tokensTaken', user: ada('a2', 600), arrivedBy: 'tab', cause: { by: 'tab' } }),
    ).toEqual({
      ...signedIn,
      user: ada('a2', 600),
      expiresAt: NOW + 600_000,
      lifetimeMs: 600_000,
    })
  })

  it('another user signs in (another tab): that user in the place of the last', () => {
    expect(next(signedIn, { type: 'tokensTaken', user: grace, arrivedBy: 'tab', cause: { by: 'tab' } })).toMatchObject({
      phase: 'signedIn',
      userId: 'user-grace',
      failures: 0,
    })
  })

  it('a token that has already expired has a life of nothing, never a negative one', () => {
    expect(
      next(signedIn, { type: 'tokensTaken', user: ada('old', -5), arrivedBy: 'tab', cause: { by: 'tab' } }),
    ).toMatchObject({
      lifetimeMs: 0,
    })
  })

  it('a refresh that could not reach Echo counts one failure more; each one after adds one', () => {
    expect(next(signedIn, { type: 'tokenRefreshInterrupted', cause: { by: 'deadline' } })).toEqual({
      ...signedIn,
      failures: 1,
    })
    expect(next(reconnecting, { type: 'tokenRefreshInterrupted', cause: { by: 'deadline' } })).toEqual({
      ...signedIn,
      failures: 3,
    })
  })

  it('new tokens end an outage: no failures left', () => {
    expect(
      next(reconnecting, { type: 'tokensTaken', user: ada('a2'), arrivedBy: 'tab', cause: { by: 'tab' } }),
    ).toMatchObject({
      failures: 0,
    })
  })

  it('a refresh starting changes nothing', () => {
    expect(next(reconnecting, { type: 'tokenRefreshStarted', cause: { by: 'renew-timer' } })).toBe(reconnecting)
  })

  it('a sign-in started, or failing to start, leaves the user signed in', () => {
    expect(next(signedIn, { type: 'signInStarted', inWindow: true })).toBe(signedIn)
    expect(next(signedIn, { type: 'signInFailed', error: ERROR })).toBe(signedIn)
  })

  it('signed out by the user, by Echo refusing the refresh, or by another tab', () => {
    expect(next(signedIn, { type: 'signedOut', cause: { by: 'user' } })).toEqual(signedOut)
    expect(
      next(reconnecting, { type: 'signedOut', cause: { by: 'echo', error: 'invalid_grant' }, ended: ERROR }),
    ).toEqual(signedOut)
    expect(next(signedIn, { type: 'signedOut', cause: { by: 'tab' } })).toEqual(signedOutByTab)
    // Storage cleared in another tab: as another tab's sign-out, an "ended" may follow.
    expect(next(signedIn, { type: 'signedOut', cause: { by: 'storage-cleared' } })).toEqual(signedOutByTab)
  })
})

describe('signed out', () => {
  it('a sign-in starts, in a window or by leaving the page', () => {
    expect(next(signedOut, { type: 'signInStarted', inWindow: true })).toEqual(signingIn)
    expect(next(signedOutByTab, { type: 'signInStarted', inWindow: false })).toEqual(signingIn)
  })

  it("another tab's sign-in arrives: signed in", () => {
    expect(
      next(signedOutByTab, { type: 'tokensTaken', user: ada('a1'), arrivedBy: 'tab', cause: { by: 'tab' } }),
    ).toEqual(signedIn)
  })

  it("the other tab's word that the session ended: signed out, nothing more to wait for", () => {
    expect(
      next(signedOutByTab, { type: 'signedOut', cause: { by: 'echo', error: 'invalid_grant' }, ended: ERROR }),
    ).toEqual(signedOut)
  })

  it('an interruption without a user changes nothing', () => {
    expect(next(signedOut, { type: 'tokenRefreshInterrupted', cause: { by: 'deadline' } })).toBe(signedOut)
  })
})

describe('signing in', () => {
  it('completed: signed in, the sign-in coming back', () => {
    expect(
      next(signingIn, { type: 'tokensTaken', user: ada('a1'), arrivedBy: 'callback', cause: { by: 'echo' } }),
    ).toEqual(signedIn)
  })

  it('failed, or the window closed by the user: signed out', () => {
    expect(next(signingIn, { type: 'signInFailed', error: ERROR })).toEqual(signedOut)
    expect(next(signingIn, { type: 'signedOut', cause: { by: 'user' } })).toEqual(signedOut)
  })

  it('a second start of the same sign-in stays signing in', () => {
    expect(next(signingIn, { type: 'signInStarted', inWindow: true })).toEqual(signingIn)
  })
})

const DAY = 86_400_000

describe('renew schedule', () => {
  it("renews a third of a short token's life before its end, and at most a minute before a long one's", () => {
    expect(renewAtMs({ expiresAt: 15_000, lifetimeMs: 15_000 })).toBe(10_000)
    expect(renewAtMs({ expiresAt: 900_000, lifetimeMs: 900_000 })).toBe(840_000)
  })

  it('never gives a timer more than it can hold: a 30-day wait goes in capped steps', () => {
    const renewAt = renewAtMs({ expiresAt: 30 * DAY, lifetimeMs: 30 * DAY })
    expect(renewTimerDelayMs(renewAt, 0)).toBe(MAX_TIMER_DELAY_MS)
    expect(MAX_TIMER_DELAY_MS).toBe(2 ** 31 - 1)
    // The capped step fires early: not due, so it re-arms for what is left.
    expect(isRenewDue(renewAt, MAX_TIMER_DELAY_MS)).toBe(false)
    expect(renewTimerDelayMs(renewAt, MAX_TIMER_DELAY_MS)).toBe(renewAt - MAX_TIMER_DELAY_MS)
    expect(isRenewDue(renewAt, renewAt)).toBe(true)
  })

  it('waits at least a second, however far the clock is past due', () => {
    expect(renewTimerDelayMs(10_000, 9_500)).toBe(1_000)
    expect(renewTimerDelayMs(10_000, 50_000)).toBe(1_000)
    expect(renewTimerDelayMs(10_000, 8_000)).toBe(2_000)
  })

  it('counts a timer that fires within a second of the renew time as due (timers may fire a little early)', () => {
    expect(isRenewDue(10_000, 9_000)).toBe(true)
    expect(isRenewDue(10_000, 8_999)).toBe(false)
  })
})

describe('the way back after Echo could not be reached', () => {
  it('waits 2 s, 5 s, 15 s, 60 s, then every 5 minutes, never less', () => {
    expect(RECONNECT_DELAYS_MS).toEqual([2_000, 5_000, 15_000, 60_000, 300_000])
    expect([1, 2, 3, 4, 5, 6, 50].map(reconnectDelayMs)).toEqual([
      2_000, 5_000, 15_000, 60_000, 300_000, 300_000, 300_000,
    ])
    expect(reconnectDelayMs(0)).toBe(2_000)
  })
})
