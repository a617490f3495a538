import type { ResolvedEchoConfig } from '../config'
import type { EchoEnvironment } from './environment'
import { newestUser, readStoredUser, storedUserKey, userFromStorageString, type StoredUser } from './storedUser'

/** What tabs say to each other on the session's BroadcastChannel: rotated tokens, or the session's end. */
export type TabMessage = { type: 'tokens'; user: string } | { type: 'ended' }

/** What the other tabs tell this one. */
export interface TabEvents {
  /**
   * The stored user changed (a sign-in or sign-out elsewhere): the user now stored, or `null`;
   * `cleared` when the whole storage was cleared rather than the user written.
   */
  storedUserChanged(user: StoredUser | null, cleared: boolean): void
  /** Another tab rotated the tokens and handed them over. */
  handedOver(user: StoredUser): void
  /** Another tab's refresh failed: the session has ended. */
  ended(): void
}

/**
 * One session's tabs kept in step: `storage` events for sign-in and sign-out elsewhere, and a
 * `BroadcastChannel` for what storage cannot carry in time: tokens a tab has just rotated, and the
 * end of the session (docs/session.md, "Tabs"). The refresh's turns across tabs, under a Web Lock of
 * the same name, are run by `refreshAttempt.ts`.
 */
export class TabSync {
  /** The channel's name, and the cross-tab refresh lock's: one per API and app. */
  readonly name: string
  readonly #env: EchoEnvironment
  readonly #userKey: string
  #channel: BroadcastChannel | undefined
  #teardown: (() => void)[] = []
  #handedOver: StoredUser | null = null

  constructor(config: ResolvedEchoConfig, env: EchoEnvironment) {
    this.#env = env
    this.name = `echo-rtk:refresh:${config.apiUrl}:${config.appId}`
    this.#userKey = storedUserKey(config)
  }

  get isListening(): boolean {
    return this.#teardown.length > 0
  }

  /** Whether tokens can be handed over between tabs here (the browser has a `BroadcastChannel`). */
  get hasChannel(): boolean {
    return this.#channel !== undefined
  }

  /** The newest tokens another tab handed over. */
  get handedOver(): StoredUser | null {
    return this.#handedOver
  }

  listen(events: TabEvents): void {
    if (this.isListening) return
    this.#teardown.push(
      this.#env.onStorage((event) => {
        if (event.key === null || event.key === this.#userKey)
          events.storedUserChanged(readStoredUser(this.#env.storage, this.#userKey), event.key === null)
      }),
    )
    const channel = this.#env.openChannel?.(this.name)
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
