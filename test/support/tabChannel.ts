/**
 * The tabs' BroadcastChannel as one tab sees it: what this tab posts, who listens, and what the other
 * tabs post to it (nothing once it is closed).
 */
export class TabChannel {
  readonly posted: unknown[] = []
  readonly #listeners = new Set<(event: MessageEvent) => void>()
  closed = false

  constructor(readonly name = 'echo-rtk:refresh') {}

  addEventListener(_type: 'message', listener: (event: MessageEvent) => void): void {
    this.#listeners.add(listener)
  }

  removeEventListener(_type: 'message', listener: (event: MessageEvent) => void): void {
    this.#listeners.delete(listener)
  }

  postMessage(message: unknown): void {
    this.posted.push(message)
  }

  close(): void {
    this.closed = true
  }

  /** How many listen for messages. */
  get messageListeners(): number {
    return this.#listeners.size
  }

  /** Another tab posts `data`. */
  receive(data: unknown): void {
    if (this.closed) return
    for (const listener of [...this.#listeners]) listener({ data } as MessageEvent)
  }

  /** As the browser's channel, for an `EchoEnvironment`. */
  asBroadcastChannel(): BroadcastChannel {
    return this as unknown as BroadcastChannel
  }
}
