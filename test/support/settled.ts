/**
 * Waits until `check` stops throwing, in real time, while fake timers stand still. msw 3 answers a request over a
 * mocked socket, which takes turns of the event loop: `vi.advanceTimersByTimeAsync` gives one turn per timer it
 * fires, and `vi.waitFor` moves the fake clock on each try, so neither can wait for an answer "now".
 */
export async function settled(check: () => void, { timeoutMs = 2_000 } = {}): Promise<void> {
  const giveUpAt = performance.now() + timeoutMs
  for (;;) {
    try {
      check()
      return
    } catch (error) {
      if (performance.now() > giveUpAt) throw error
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}
