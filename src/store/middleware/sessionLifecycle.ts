import type { Dispatch } from '@reduxjs/toolkit'

import { otherConfigMessage } from '../../api/query/setupMessages'
import { EchoSession } from '../../auth/EchoSession'
import { sessionEnvironment, type EchoEnvironment } from '../../auth/environment'
import { configKey, resolveConfig, unknownConfigKeys, type EchoConfig } from '../../config'
import { sessionReports } from './sessionReports'

/** A store's one session (never module-global): made at the first start, kept for the store's life. */
export interface SessionLifecycle {
  readonly session: EchoSession | undefined
  readonly environment: EchoEnvironment | undefined
  /** Starts the session with `config`; the same config again is a no-op, another one throws. */
  start(config: EchoConfig): EchoSession
  stop(): void
  /** Stops the session and drops it: the next `start` makes a new one, from storage. */
  reset(): void
}

/** @internal */
export function sessionLifecycle(dispatch: Dispatch, overrides: Partial<EchoEnvironment> | undefined): SessionLifecycle {
  let session: EchoSession | undefined
  let environment: EchoEnvironment | undefined
  return {
    get session() {
      return session
    },
    get environment() {
      return environment
    },
    start(config) {
      const resolved = resolveConfig(config)
      if (session !== undefined && configKey(session.config) !== configKey(resolved)) {
        throw new Error(otherConfigMessage(session.config.appId, session.config.apiUrl))
      }
      environment ??= sessionEnvironment(overrides)
      // Bundlers replace NODE_ENV, and drop the warning from production builds.
      if (session === undefined && process.env.NODE_ENV !== 'production') for (const warning of unknownConfigKeys(config)) environment.logWarning(warning)
      session ??= new EchoSession(resolved, sessionReports(dispatch), environment)
      session.start()
      return session
    },
    stop() {
      session?.stop()
    },
    reset() {
      session?.stop()
      session = undefined
      environment = undefined
    },
  }
}
