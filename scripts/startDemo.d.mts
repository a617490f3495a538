import type { RunningDevServer } from '../dev-server/startDevServer.mjs'
import type { DevServerSettings } from '../dev-server/settings.mjs'

export interface RunningDemo {
  appUrl: string
  devServer: RunningDevServer | undefined
  close(): Promise<void>
}

export function startDemo(options?: {
  devServer?: Partial<DevServerSettings>
  echo?: { appId: string; apiUrl?: string; routerUrl?: string }
  appPort?: number
}): Promise<RunningDemo>
