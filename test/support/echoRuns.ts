// A run of echo-rtk's listeners without the rest of the runtime, for a feature tested on its own:
// the store's listener middleware (store/run.ts) and one start of it, stopped by `stop()`.
import type { EchoEnvironment } from '../../src/auth/environment'
import { createEchoListeners, type EchoListeners, type EchoRun } from '../../src/store/run'

/** Listeners to put in a test store's middleware, and runs of them as the runtime starts them. */
export function echoRuns(listeners: EchoListeners = createEchoListeners(console.error)) {
  return {
    middleware: listeners.middleware,
    /** One start: its listeners hear the store's actions until `stop()`. */
    start(environment: Pick<EchoEnvironment, 'setTimeout' | 'clearTimeout'>): { run: EchoRun; stop(): void } {
      const controller = new AbortController()
      return { run: listeners.run(controller, environment), stop: () => controller.abort() }
    },
  }
}
