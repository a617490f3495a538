// The session's state and the pure rules over it: where it stands, what happens to it and what the
// store is told, the one rule of every transition, and when its one timer fires (the renew, or the
// next try while Echo is out of reach).
// `EchoSession.ts` applies them; nothing here holds or changes anything.
import type { EchoErrorData } from '../errors'
import type { InterruptionCause, RefreshCause, SignOutCause, TokensCause } from './causes'
import type { EchoUser } from './echoUser'
import type { SignInReturnTo } from './signInOptions'
import { expiresAtMs, type StoredUser } from './storedUser'

/**
 * How a sign-in reached this page: back from Echo (`callback`), restored from `storage`, or from another `tab`.
 *
 * @inline
 */
export type SignInSource = 'callback' | 'storage' | 'tab'

/** What the store is told when someone is signed in. */
export interface SessionSnapshot {
  user: EchoUser
  /** `null` in server mode: the page holds no token. */
  accessToken: string | null
  /** Epoch milliseconds; `null` in server mode. */
  expiresAt: number | null
  arrivedBy: SignInSource
  /** What the app handed to the sign-in that just completed here (`signIn({ returnTo })`). */
  returnTo?: SignInReturnTo | undefined
}

/** How the session tells its store what happened; the store's middleware turns these into actions. */
export interface SessionReporter {
  /** A sign-in starts: in a window of its own (`inWindow`), or leaving the page, or coming back to it. */
  signInStarted(inWindow?: boolean): void
  signedIn(snapshot: SessionSnapshot): void
  signInFailed(error: EchoErrorData, arrivedBy?: SignInSource): void
  tokenRefreshStarted(cause: RefreshCause): void
  tokenRefreshed(token: { accessToken: string | null; expiresAt: number | null }, cause: TokensCause): void
  /** A refresh could not reach Echo: the user stays signed in while the session tries again. */
  tokenRefreshInterrupted(cause: InterruptionCause): void
  /** `ended` when the session ended on its own (its refresh failed), not by the user's choice. */
  signedOut(cause: SignOutCause, ended?: EchoErrorData): void
}

/**
 * Where the session stands. Each phase holds only what it has, and `EchoSession`'s one transition
 * function (`#dispatch`) makes every change to it, by {@link nextState}.
 */
export type SessionState =
  /** Not started: neither the address bar nor storage has been read. */
  | { readonly phase: 'idle' }
  /** This page is a sign-in popup handing its answer to the window that opened it: it runs nothing of its own. */
  | { readonly phase: 'handingOver' }
  /**
   * Nobody is signed in. `byTab`: another tab's storage signed this one out, and that tab's message that
   * the session ended may still come.
   */
  | { readonly phase: 'signedOut'; readonly byTab: boolean }
  /** A sign-in leaving for Echo, or coming back from it, with nobody signed in meanwhile. */
  | { readonly phase: 'signingIn' }
  /** A stored user whose token had expired, held at start-up for the one renew; the store is not told yet. */
  | { readonly phase: 'restoring'; readonly user: StoredUser }
  /**
   * Someone is signed in, and the store was told who (`userId`). `expiresAt`: when the current
   * token expires (epoch ms); `lifetimeMs`: how long it lived in all (its renew time is counted from
   * it). `failures`: refresh attempts in a row that could not reach Echo; the session is
   * reconnecting while above 0.
   */
  | {
      readonly phase: 'signedIn'
      readonly user: StoredUser
      readonly userId: string
      readonly expiresAt: number
      readonly lifetimeMs: number
      readonly failures: number
    }

/** What happens to a session: each event is one transition, and at most one report to the store. */
export type SessionEvent =
  | { readonly type: 'handOverStarted' }
  | { readonly type: 'handOverDeclined' }
  | { readonly type: 'signInStarted'; readonly inWindow: boolean }
  | { readonly type: 'signInFailed'; readonly error: EchoErrorData; readonly arrivedBy?: SignInSource | undefined }
  | { readonly type: 'restored'; readonly user: StoredUser }
  /**
   * New tokens: a new user signed in, or the same one's tokens renewed (`cause`: by Echo's answer here,
   * or by another tab).
   */
  | {
      readonly type: 'tokensTaken'
      readonly user: StoredUser
      readonly arrivedBy: SignInSource
      readonly cause: TokensCause
      readonly returnTo?: SignInReturnTo | undefined
    }
  | { readonly type: 'tokenRefreshStarted'; readonly cause: RefreshCause }
  | { readonly type: 'tokenRefreshInterrupted'; readonly cause: InterruptionCause }
  /** `ended`: what the store shows, when the user did not choose it. */
  | { readonly type: 'signedOut'; readonly cause: SignOutCause; readonly ended?: EchoErrorData | undefined }

/**
 * The session's next state after `event` (the one rule of every transition; `nowMs` for the new
 * token's lifetime). A sign-in started or failed while someone is signed in leaves them signed in:
 * the page is about to leave, or the store's report says what failed.
 */
export function nextState(state: SessionState, event: SessionEvent, nowMs: number): SessionState {
  switch (event.type) {
    case 'handOverStarted':
      return { phase: 'handingOver' }
    case 'handOverDeclined':
      return { phase: 'idle' }
    case 'signInStarted':
      return state.phase === 'signedIn' ? state : { phase: 'signingIn' }
    case 'signInFailed':
      return state.phase === 'signedIn' ? state : { phase: 'signedOut', byTab: false }
    case 'restored':
      return { phase: 'restoring', user: event.user }
    case 'tokensTaken': {
      const expiresAt = expiresAtMs(event.user)
      const lifetimeMs = Math.max(expiresAt - nowMs, 0)
      return { phase: 'signedIn', user: event.user, userId: event.user.profile.sub, expiresAt, lifetimeMs, failures: 0 }
    }
    case 'tokenRefreshStarted':
      return state
    case 'tokenRefreshInterrupted':
      return state.phase === 'signedIn' ? { ...state, failures: state.failures + 1 } : state
    case 'signedOut':
      return { phase: 'signedOut', byTab: event.cause.by === 'tab' || event.cause.by === 'storage-cleared' }
  }
}

// When the session renews, and when it tries again.

/** oidc-client-ts's own warning window; a short-lived token gets a third of its life instead. */
const MAX_RENEW_LEAD_MS = 60_000
/** However the clock disagrees with the server, renewals never come closer together than this. */
const MIN_RENEW_DELAY_MS = 1_000
/** The longest delay `setTimeout` keeps: browsers and Node fire a longer one at once. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647

/**
 * When to renew a token that expires at `expiresAt` and lived `lifetimeMs` in all (epoch ms): its
 * end minus a third of its life, at most 60 s before it. A 15 s token renews at 10 s, once.
 */
export function renewAtMs({ expiresAt, lifetimeMs }: { expiresAt: number; lifetimeMs: number }): number {
  return expiresAt - Math.min(MAX_RENEW_LEAD_MS, lifetimeMs / 3)
}

/**
 * The timer delay towards `renewAt`: at least a second, and never above what a timer can hold, so a
 * token that lives for weeks is waited for in steps (each re-checked with {@link isRenewDue}).
 */
export function renewTimerDelayMs(renewAt: number, now: number): number {
  return Math.min(Math.max(renewAt - now, MIN_RENEW_DELAY_MS), MAX_TIMER_DELAY_MS)
}

/** Whether a renew timer that fired at `now` found its token due, rather than firing early (a capped step). */
export function isRenewDue(renewAt: number, now: number): boolean {
  return now >= renewAt - MIN_RENEW_DELAY_MS
}

/**
 * How long the session waits after each refresh attempt in a row that could not reach Echo before
 * it tries again by itself: quickly at first (a blip, a Wi-Fi coming back after a laptop wakes),
 * then every 5 minutes, never in a loop. Coming back online, the page shown again and the next call
 * try at once.
 */
export const RECONNECT_DELAYS_MS: readonly number[] = [2_000, 5_000, 15_000, 60_000, 300_000]

/** The wait before the next attempt, after `failures` attempts in a row could not reach Echo (1 or more). */
export function reconnectDelayMs(failures: number): number {
  return RECONNECT_DELAYS_MS[Math.min(Math.max(failures, 1), RECONNECT_DELAYS_MS.length) - 1]!
}
