/**
 * The tabs' BroadcastChannel as one tab sees it: what this tab posts, who listens, and what the other
 * tabs post to it (nothing once it is closed).
 */
export class TabChannel {
  readonly posted: unknown[] = []
  readonly #listeners = new Map<string, Set<(event: MessageEvent) => void>>()
  closed = false

  constructor(readonly name = 'echo-rtk:refresh') {}

  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    const listeners = this.#listeners.get(type) ?? new Set()
    listeners.add(listener)
    this.#listeners.set(type, listeners)
  }

  removeEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.#listeners.get(type)?.delete(listener)
  }

  postMessage(message: unknown): void {
    this.posted.push(message)
  }

  close(): void {
    this.closed = true
  }

  /** How many listen for messages. */
  get messageListeners(): number {
    return this.#listeners.get('message')?.size ?? 0
  }

  /** Another tab posts `data`. */
  receive(data: unknown): void {
    if (this.closed) return
    for (const listener of [...(this.#listeners.get('message') ?? [])]) listener({ data } as MessageEvent)
  }

  /** As the browser's channel, for an `EchoEnvironment`. */
  asBroadcastChannel(): BroadcastChannel {
    return this as unknown as BroadcastChannel
  }

  /** An `EchoEnvironment.openChannel` that keeps each channel it opens in `opened`, newest last. */
  static opener(opened: TabChannel[]): (name: string) => BroadcastChannel {
    return (name) => {
      const channel = new TabChannel(name)
      opened.push(channel)
      return channel.asBroadcastChannel()
    }
  }
}
