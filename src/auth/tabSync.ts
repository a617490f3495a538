import type { User } from 'oidc-client-ts'

import type { ResolvedEchoConfig } from '../config'
import { withCrossTabLock } from './crossTabLock'
import type { EchoEnvironment } from './environment'
import { storedUserKey } from './storedUserKey'
import { expiresAtMs, newestUser, readStoredUser, storeUser, userFromStorageString } from './storedUser'

/** How long a tab holding the refresh lock waits for another tab's hand-over before refreshing itself. */
const HANDOVER_GRACE_MS = 150

/** Why a refresh that outlived its session is thrown away. */
export const SESSION_ENDED_DURING_REFRESH = 'The session ended while its token was being refreshed'

/** What tabs say to each other on the session's BroadcastChannel: rotated tokens, the session's end, credits bought. */
export type TabMessage = { type: 'tokens'; user: string } | { type: 'ended' } | { type: 'balance' }

/** What the other tabs tell this one. */
export interface TabEvents {
  /** The stored user changed (a sign-in or sign-out elsewhere): the user now stored, or `null`. */
  storedUserChanged(user: User | null): void
  /** Another tab rotated the tokens and handed them over. */
  handedOver(user: User): void
  /** Another tab's refresh failed: the session has ended. */
  ended(): void
  /** Credits were bought in another tab. */
  balanceChanged(): void
}

/**
 * One session's tabs kept in step: `storage` events for sign-in and sign-out elsewhere, a
 * `BroadcastChannel` for what storage cannot carry in time, and refreshes serialized across tabs
 * under a Web Lock. Echo rotates the refresh token on every use and a spent one presented again can
 * revoke the whole grant, so under the lock a tab first takes any newer tokens another tab has
 * (from storage or handed over) and refreshes only when there are none; the tab that refreshed
 * hands its tokens over before it lets go of the lock (DESIGN §4).
 */
export class TabSync {
  readonly #env: EchoEnvironment
  readonly #name: string
  readonly #userKey: string
  #channel: BroadcastChannel | undefined
  #teardown: (() => void)[] = []
  /** The newest tokens another tab handed over. */
  #handedOver: User | null = null

  constructor(config: ResolvedEchoConfig, env: EchoEnvironment) {
    this.#env = env
    this.#name = `echo-rtk:refresh:${config.apiUrl}:${config.appId}`
    this.#userKey = storedUserKey(config)
  }

  get isListening(): boolean {
    return this.#teardown.length > 0
  }

  listen(events: TabEvents): void {
    if (this.isListening) return
    this.#teardown.push(
      this.#env.onStorage((event) => {
        if (event.key === null || event.key === this.#userKey) events.storedUserChanged(readStoredUser(this.#env.storage, this.#userKey))
      }),
    )
    const channel = this.#env.openChannel?.(this.#name)
    if (channel === undefined) return
    const onMessage = ({ data }: MessageEvent<unknown>) => this.#receive(data, events)
    channel.addEventListener('message', onMessage)
    this.#channel = channel
    this.#teardown.push(() => {
      channel.removeEventListener('message', onMessage)
      channel.close()
      this.#channel = undefined
    })
  }

  stop(): void {
    for (const remove of this.#teardown.splice(0)) remove()
  }

  /** Tells the other tabs. */
  tell(message: TabMessage): void {
    this.#channel?.postMessage(message)
  }

  /** Forgets what was handed over (the session ended here). */
  forget(): void {
    this.#handedOver = null
  }

  /**
   * Tokens newer than `stale`, under the cross-tab lock: another tab's if it has rotated them
   * already, else those `refresh` gets from `current()`'s refresh token, stored and handed over
   * while `isWanted()`: once it is not (a sign-out, another user), whatever comes of it rejects
   * with {@link SESSION_ENDED_DURING_REFRESH}, and nothing is stored or handed over.
   */
  renew(
    stale: User | null,
    current: () => User | null,
    refresh: (user: User & { refresh_token: string }) => Promise<User>,
    isWanted: () => boolean,
  ): Promise<User> {
    const replacesStale = (user: User | null): user is User => user !== null && user.access_token !== stale?.access_token && expiresAtMs(user) > this.#env.now()
    const outlived = () => new Error(SESSION_ENDED_DURING_REFRESH)
    const renewing = withCrossTabLock(this.#env.locks, this.#name, async () => {
      let newest = this.newest(current())
      if (!replacesStale(newest) && this.#channel !== undefined) {
        // The lock and the hand-over reach this tab as separate tasks: the tab that just rotated
        // the tokens may have posted them a moment before this ran. Give them time to land.
        await new Promise<void>((resolve) => this.#env.setTimeout(resolve, HANDOVER_GRACE_MS))
        newest = this.newest(current())
      }
      if (replacesStale(newest)) return newest
      const refreshable = newest as User | null
      if (!refreshable?.refresh_token) throw new Error('There is no refresh token to renew the session with: sign in again')
      const renewed = await refresh(refreshable as User & { refresh_token: string })
      if (!renewed.access_token || renewed.access_token === stale?.access_token) throw new Error('Silent renew did not yield a new access token')
      if (!isWanted()) throw outlived()
      storeUser(this.#env.storage, this.#userKey, renewed)
      this.tell({ type: 'tokens', user: renewed.toStorageString() })
      return renewed
    })
    return renewing.then(
      (user) => {
        if (!isWanted()) throw outlived()
        return user
      },
      (error: unknown) => {
        throw isWanted() ? error : outlived()
      },
    )
  }

  /** The newest tokens this tab knows: stored, handed over, or its own. */
  newest(own: User | null): User | null {
    return newestUser([readStoredUser(this.#env.storage, this.#userKey), this.#handedOver, own])
  }

  /** A message from another tab, checked: any script of this origin may post on the channel. */
  #receive(message: unknown, events: TabEvents): void {
    const { type, user: text } = (message ?? {}) as Partial<{ type: unknown; user: unknown }>
    if (type === 'ended') return events.ended()
    if (type === 'balance') return events.balanceChanged()
    const user = type === 'tokens' ? userFromStorageString(text) : null
    if (user === null) return
    this.#handedOver = newestUser([user, this.#handedOver])
    events.handedOver(user)
  }
}
