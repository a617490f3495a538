import {
  addListener,
  clearAllListeners,
  createListenerMiddleware,
  isAnyOf,
  removeListener,
  type Middleware,
  type TypedStartListening,
} from '@reduxjs/toolkit'

import type { EchoEnvironment } from '../auth/environment'
import type { EchoRootState } from './echoReducer'

/** How echo-rtk's features listen to a store's actions: Redux Toolkit's `startListening`, for echo-rtk's state. */
export type EchoStartListening = TypedStartListening<EchoRootState>

/**
 * One start of a store's runtime, until its stop: what the features' effects hang on. The stop aborts
 * `signal`, which removes every listener added with `listen` and clears every timer set with `later`,
 * so a stopped store is inert because nothing of its run is left to act.
 */
export interface EchoRun {
  readonly signal: AbortSignal
  /** Adds a listener for this run (`startListening`'s options): removed at the stop. */
  readonly listen: EchoStartListening
  /**
   * Runs `act` after `ms` on the page's clock (the environment's timers, which tests and DevTools' moments play),
   * unless the run stops first; returns what cancels it.
   */
  later(act: () => void, ms: number): () => void
  /** Runs `stop` at the run's stop (at once if it has stopped). */
  onStop(stop: () => void): void
}

/** A store's listener middleware, and how each start of its runtime listens through it. */
export interface EchoListeners {
  middleware: Middleware
  /** A run of the store's runtime: its listeners and timers end with `controller`'s abort. */
  run(controller: AbortController, environment: Pick<EchoEnvironment, 'setTimeout' | 'clearTimeout'>): EchoRun
}

/** The actions any listener middleware takes for its own: an app's listener middleware must get them, not this one. */
const isListenerAction = isAnyOf(addListener, removeListener, clearAllListeners)

/**
 * The store's one listener middleware for echo-rtk's features (`createListenerMiddleware`, one per
 * store). An app's own `addListener` actions pass it by, to the app's listener middleware.
 */
export function createEchoListeners(logError: (message: string, error: unknown) => void): EchoListeners {
  const listeners = createListenerMiddleware<EchoRootState>({
    onError: (error) => logError('echo-rtk: a listener failed:', error),
  })
  const middleware: Middleware = (store) => {
    const listening = listeners.middleware(store as Parameters<typeof listeners.middleware>[0])
    return (next) => {
      const withListeners = listening(next)
      return (action) => (isListenerAction(action) ? next(action) : withListeners(action))
    }
  }
  const run: EchoListeners['run'] = ({ signal }, environment) => {
    // One abort listener for the run, whatever it holds: what stops with it is kept in one set.
    const atStop = new Set<() => void>()
    signal.addEventListener('abort', () => atStop.forEach((stop) => stop()), { once: true })
    const onStop = (stop: () => void) => {
      if (signal.aborted) stop()
      else atStop.add(stop)
    }
    const listen = ((options: Parameters<EchoStartListening>[0]) => {
      const unsubscribe = listeners.startListening(options)
      onStop(() => unsubscribe({ cancelActive: true }))
      return unsubscribe
    }) as EchoStartListening
    const later = (act: () => void, ms: number) => {
      if (signal.aborted) return () => undefined
      const cancel = () => {
        atStop.delete(cancel)
        environment.clearTimeout(handle)
      }
      const handle = environment.setTimeout(() => {
        atStop.delete(cancel)
        act()
      }, ms)
      atStop.add(cancel)
      return cancel
    }
    return { signal, listen, later, onStop }
  }
  return { middleware, run }
}
