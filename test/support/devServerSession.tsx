// A page signed in to the dev server (in its own process): real tokens from its OpenID provider,
// stored as the session stores them, and every request to it recorded on its way through msw.
import { http, passthrough } from 'msw'
import type { ReactNode } from 'react'

import { EchoProvider, type EchoConfig } from 'echo-rtk'

import type { RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { signIn, type TokenResponse } from '../dev-server/devServerClient'
import { server } from './server'

export interface SeenByDevServer {
  method: string
  /** Origin and path, e.g. `http://127.0.0.1:40001/chat/completions`. */
  url: string
  authorization: string | null
}

/** Lets requests to the dev server through msw, recording each. */
export function recordDevServer(): SeenByDevServer[] {
  const seen: SeenByDevServer[] = []
  server.use(
    http.all(/^http:\/\/127\.0\.0\.1:\d+\//, ({ request }) => {
      const url = new URL(request.url)
      seen.push({
        method: request.method,
        url: url.origin + url.pathname,
        authorization: request.headers.get('authorization'),
      })
      return passthrough()
    }),
  )
  return seen
}

/** The provider config of an app on the dev server. */
export function devServerConfig(dev: RunningDevServer): EchoConfig {
  return { appId: dev.appId, apiUrl: dev.apiUrl, baseRouterUrl: dev.routerUrl, redirectUri: 'http://localhost:3000' }
}

/**
 * Signs the test user in headlessly and stores the tokens the way the session does, so a provider
 * rendered next starts signed in. `accessToken` replaces the real one (a stale token, say).
 */
export async function storeDevServerSession(
  dev: RunningDevServer,
  { accessToken }: { accessToken?: string } = {},
): Promise<TokenResponse> {
  const tokens = await signIn(dev)
  window.localStorage.setItem(
    `oidc.user:${dev.apiUrl}:${dev.appId}`,
    JSON.stringify({
      access_token: accessToken ?? tokens.access_token,
      refresh_token: tokens.refresh_token,
      token_type: 'Bearer',
      scope: tokens.scope,
      profile: { sub: dev.testUser.id, email: dev.testUser.email, name: dev.testUser.name },
      expires_at: Math.floor(Date.now() / 1000) + tokens.expires_in,
    }),
  )
  return tokens
}

/** A `renderHook` wrapper: the hooks under test inside a provider for the dev server. */
export function devServerWrapper(dev: RunningDevServer) {
  const config = devServerConfig(dev)
  return function Wrapper({ children }: { children: ReactNode }) {
    return <EchoProvider config={config}>{children}</EchoProvider>
  }
}
