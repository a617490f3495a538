import type { ResolvedEchoConfig } from '../config'
import type { EchoSession } from './EchoSession'
import type { EchoEnvironment } from './environment'
import type { PageSession } from './pageSession'
import type { ServerSession } from './ServerSession'
import type { SessionReporter } from './sessionState'

// The store's session comes from a chunk of its own mode: the browser's session (the tokens in this
// page's storage, their renewal, the tabs, the popup) or the page's side of the server-held one (no
// token here). A page loads the code of its own mode only, so a server-mode app ships none of the
// browser session's, and a browser-mode app none of server mode's.

/**
 * The session classes this page has loaded, by mode. Code, as the bundler's own module map holds it,
 * never a session or anything of one: each store makes its own. Once loaded, a store's session is made
 * at once.
 */
const loadedCode: { browser?: typeof EchoSession; server?: typeof ServerSession } = {}

/** Loads the session code of `mode` (once per page). */
export async function loadSessionCode(mode: ResolvedEchoConfig['session']): Promise<void> {
  if (mode === 'server') loadedCode.server ??= (await import('./ServerSession')).ServerSession
  else loadedCode.browser ??= (await import('./EchoSession')).EchoSession
}

/** The store's session for its mode: made at once when its code is loaded, else once it has loaded. */
export function makeSession(
  config: ResolvedEchoConfig,
  report: SessionReporter,
  env: EchoEnvironment,
): PageSession | Promise<PageSession> {
  const make = (): PageSession | undefined => {
    const { browser, server } = loadedCode
    if (config.session === 'server') return server === undefined ? undefined : new server(config, report, env)
    return browser === undefined ? undefined : new browser(config, report, env)
  }
  return make() ?? loadSessionCode(config.session).then(() => make()!)
}
