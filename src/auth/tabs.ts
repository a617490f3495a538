import { abortable } from '../api/abortable'
import type { ResolvedEchoConfig } from '../config'
import type { EchoEnvironment } from './environment'
import {
  newestUser,
  readStoredUser,
  storedUserKey,
  storeUser,
  toStorageString,
  userFromStorageString,
  type StoredUser,
} from './storedUser'

/** How long a tab holding the refresh lock waits for another tab's hand-over before refreshing itself. */
const HANDOVER_GRACE_MS = 150

/** What tabs say to each other on the session's BroadcastChannel: rotated tokens, or the session's end. */
export type TabMessage = { type: 'tokens'; user: string } | { type: 'ended' }

/** What the other tabs tell this one. */
export interface TabEvents {
  /** The stored user changed (a sign-in or sign-out elsewhere): the user now stored, or `null`. */
  storedUserChanged(user: StoredUser | null): void
  /** Another tab rotated the tokens and handed them over. */
  handedOver(user: StoredUser): void
  /** Another tab's refresh failed: the session has ended. */
  ended(): void
}

/**
 * One session's tabs kept in step: `storage` events for sign-in and sign-out elsewhere, a
 * `BroadcastChannel` for what storage cannot carry in time, and refreshes taking turns across tabs
 * under a Web Lock. Echo rotates the refresh token on every use and a spent one presented again can
 * revoke the whole grant, so in its turn a tab first takes any newer tokens another tab has (from
 * storage or handed over) and refreshes only when there are none; the tab that refreshed hands its
 * tokens over before its turn ends (docs/session.md, "Tabs"). `refreshAttempt.ts` runs that turn.
 */
export class TabSync {
  readonly #env: EchoEnvironment
  readonly #name: string
  readonly #userKey: string
  #channel: BroadcastChannel | undefined
  #teardown: (() => void)[] = []
  /** The newest tokens another tab handed over. */
  #handedOver: StoredUser | null = null
  /** This tab's last refresh turn, settled when its work is done. */
  #turn: Promise<void> = Promise.resolve()

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
        if (event.key === null || event.key === this.#userKey)
          events.storedUserChanged(readStoredUser(this.#env.storage, this.#userKey))
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
   * Runs `work` in this session's turn to refresh: after this tab's own earlier refresh (which may
   * still await a late answer) and under the cross-tab lock, so a refresh token is never spent
   * twice. `signal` gives up waiting for the turn; once `work` runs it runs to its end.
   */
  inTurn<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const previous = this.#turn
    const mine = abortable(previous, signal).then(() => withCrossTabLock(this.#env.locks, this.#name, signal, work))
    // The next turn waits for this one's work, or, if this one gave up waiting, for the one before.
    this.#turn = previous.then(() => mine).then(noop, noop)
    return mine
  }

  /**
   * Waits a moment for another tab's hand-over that may be on its way: the lock and the message
   * reach this tab as separate tasks, so the tab that just rotated the tokens may have posted them
   * a moment before this tab's turn came. Nothing to wait for without a channel.
   */
  async awaitHandOver(): Promise<void> {
    if (this.#channel !== undefined)
      await new Promise<void>((resolve) => this.#env.setTimeout(resolve, HANDOVER_GRACE_MS))
  }

  /** Stores `user` (rotated here) and hands it over to the other tabs. */
  share(user: StoredUser): void {
    storeUser(this.#env.storage, this.#userKey, user)
    this.tell({ type: 'tokens', user: toStorageString(user) })
  }

  /** The newest tokens this tab knows: stored, handed over, or its own. */
  newest(own: StoredUser | null): StoredUser | null {
    return newestUser([readStoredUser(this.#env.storage, this.#userKey), this.#handedOver, own])
  }

  /** A message from another tab, checked: any script of this origin may post on the channel. */
  #receive(message: unknown, events: TabEvents): void {
    const { type, user: text } = (message ?? {}) as Partial<{ type: unknown; user: unknown }>
    if (type === 'ended') return events.ended()
    const user = type === 'tokens' ? userFromStorageString(text) : null
    if (user === null) return
    this.#handedOver = newestUser([user, this.#handedOver])
    events.handedOver(user)
  }
}

/**
 * Runs `work` while holding the named Web Lock, so one tab at a time refreshes: Echo rotates the
 * refresh token on every use, and two tabs presenting the same one can revoke the whole grant.
 * `signal` gives up waiting for the lock (a tab that hangs while holding it must not hold the
 * others forever); once granted, the lock is held until `work` settles, whatever the signal does.
 * Without Web Locks (Node, jsdom, old browsers) it runs `work` at once: single-tab behaviour.
 */
export function withCrossTabLock<T>(
  locks: EchoEnvironment['locks'],
  name: string,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  if (locks === undefined) return work()
  return locks.request(name, { mode: 'exclusive', signal }, work) as Promise<T>
}

function noop(): void {}
