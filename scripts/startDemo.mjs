// Starts what `npm run demo` and the e2e tests run: the local Echo dev server (unless told to use
// another Echo) and the example app's Vite server, wired to each other.
import { fileURLToPath } from 'node:url'

import { createServer } from 'vite'

const exampleConfig = fileURLToPath(new URL('../examples/react-app/vite.config.ts', import.meta.url))

/**
 * @param {object} options
 * @param {Partial<import('../dev-server/settings.mjs').DevServerSettings>} [options.devServer] dev server settings; ignored with `echo`
 * @param {{ appId: string, apiUrl?: string, routerUrl?: string }} [options.echo] use this Echo instead of a local dev server
 * @param {number} [options.appPort] the app's port (0: any free one)
 */
export async function startDemo({ devServer = {}, echo, appPort = 5173 } = {}) {
  let local
  if (echo === undefined) {
    const { startDevServer } = await import('../dev-server/startDevServer.mjs')
    local = await startDevServer(devServer)
  }
  const target = echo ?? { appId: local.appId, apiUrl: local.apiUrl, routerUrl: local.routerUrl }
  const define = Object.fromEntries(
    Object.entries({
      VITE_ECHO_APP_ID: target.appId,
      VITE_ECHO_API_URL: target.apiUrl,
      VITE_ECHO_ROUTER_URL: target.routerUrl,
    })
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [`import.meta.env.${name}`, JSON.stringify(value)]),
  )
  let vite
  try {
    vite = await createServer({
      configFile: exampleConfig,
      define,
      logLevel: 'warn',
      server: { port: appPort, strictPort: false, host: '127.0.0.1' },
    })
    await vite.listen()
  } catch (error) {
    await local?.close()
    throw error
  }
  const appUrl = (vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${appPort}/`).replace(/\/$/, '')
  return {
    appUrl,
    devServer: local,
    close: async () => {
      await vite.close()
      await local?.close()
    },
  }
}
