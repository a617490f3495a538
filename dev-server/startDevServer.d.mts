// Types for the tests and scripts that start the dev server from TypeScript.
import type { DevServerSettings } from './settings.mjs'

export type { DevServerSettings }

/** The only interface the dev server listens on. */
export declare const HOST: '127.0.0.1'

export interface RunningDevServer {
  /** The API and OAuth origin, e.g. `http://127.0.0.1:8787`. */
  apiUrl: string
  /** The router origin, e.g. `http://127.0.0.1:8788`. */
  routerUrl: string
  /** The demo app's id: its Echo app id and OAuth client id. */
  appId: string
  /** The test user; `balance` is the starting balance in USD. */
  testUser: { id: string; email: string; password: string; name: string; balance: number }
  /** The settings in force. */
  settings: DevServerSettings
  /** Stops both servers and ends open connections and streams. */
  close(): Promise<void>
}

/**
 * Starts the dev server; port 0 picks free ports.
 * @example
 * const server = await startDevServer({ port: 0, routerPort: 0, autoLogin: true })
 * await server.close()
 */
export declare function startDevServer(options?: Partial<DevServerSettings>): Promise<RunningDevServer>
