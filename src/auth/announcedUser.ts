import type { User } from 'oidc-client-ts'

import { toEchoUser } from './echoUser'
import { expiresAtMs } from './storedUser'
import { SESSION_ENDED, type SessionReporter, type SignInSource } from './sessionReporter'

/**
 * Who the store was told is signed in, and what it is told next: `signedIn` once per user,
 * `tokenRefreshed` after; "Your session has ended" once, whichever tab's signal comes first. Also
 * the scope of that user: a refresh begun for them must not outlive them (a sign-out, another user).
 */
export class AnnouncedUser {
  readonly #report: SessionReporter
  #userId: string | null = null
  #scope = new AbortController()
  /** Another tab's storage signed this one out: the message that the session ended may still come on the channel. */
  #signedOutByTab = false

  constructor(report: SessionReporter) {
    this.#report = report
  }

  /** Whether the store has been told of a user (and not since of a sign-out). */
  get hasUser(): boolean {
    return this.#userId !== null
  }

  /** Aborted when the announced user is gone. */
  get userGone(): AbortSignal {
    return this.#scope.signal
  }

  /** The user clicked Sign in: a late "session ended" from another tab is no news now. */
  signInStarted(): void {
    this.#signedOutByTab = false
    this.#report.signInStarted()
  }

  /** Tells the store `user` is signed in: a new user (ending the last one's scope), or new tokens for the same one. */
  signedIn(user: User, arrivedBy: SignInSource): void {
    const expiresAt = expiresAtMs(user)
    const echoUser = toEchoUser(user.profile)
    this.#signedOutByTab = false
    if (this.#userId === echoUser.id) return this.#report.tokenRefreshed({ accessToken: user.access_token, expiresAt })
    if (this.#userId !== null) this.#newScope()
    this.#userId = echoUser.id
    this.#report.signedIn({ user: echoUser, accessToken: user.access_token, expiresAt, arrivedBy })
  }

  /** The user is gone from this session: their scope ends (the store is told by the caller, when and why). */
  forget(): void {
    this.#newScope()
    this.#userId = null
    this.#signedOutByTab = false
  }

  /** Another tab's storage signed this tab out: tells the store, and remembers it for a "session ended" that may follow. */
  signedOutByTab(): void {
    this.#signedOutByTab = true
    this.#report.signedOut()
  }

  /** Another tab says the session ended: said here too, once, if that tab's sign-out reached this one first. */
  endedAfterTabSignOut(): void {
    if (!this.#signedOutByTab) return
    this.#signedOutByTab = false
    this.#report.signedOut(SESSION_ENDED)
  }

  #newScope(): void {
    this.#scope.abort()
    this.#scope = new AbortController()
  }
}
