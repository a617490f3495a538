// Types for settings.mjs.

export interface DevServerSettings {
  /** OAuth and /api/v1 port (0 = any free port). ECHO_DEV_PORT, --port. */
  port: number
  /** The model router's port (0 = any free port). ECHO_DEV_ROUTER_PORT, --router-port. */
  routerPort: number
  /** Access-token lifetime in seconds. ECHO_DEV_ACCESS_TTL, --access-ttl. */
  accessTtl: number
  /** Login and consent complete by themselves for the test user. ECHO_DEV_AUTO_LOGIN=1, --auto-login. */
  autoLogin: boolean
  /** Pause between streamed chunks in milliseconds. ECHO_DEV_STREAM_DELAY, --stream-delay. */
  streamDelayMs: number
  /** The test user's starting balance in USD. ECHO_DEV_BALANCE, --balance. */
  balance: number
}

export declare const DEFAULT_SETTINGS: Readonly<DevServerSettings>

export declare const SETTING_SOURCES: ReadonlyArray<{
  key: keyof DevServerSettings
  env: string
  flag: string
  kind: 'port' | 'seconds' | 'ms' | 'usd' | 'boolean'
  help: string
}>

export declare function resolveSettings(options?: Partial<DevServerSettings>): DevServerSettings

export declare function readSettings(
  env: Record<string, string | undefined>,
  argv: readonly string[],
): { settings: Partial<DevServerSettings>; help: boolean }

export declare function usage(): string
