import type { EchoSession } from './EchoSession'
import type { ServerSession } from './ServerSession'

/**
 * A store's session in the page: the browser's own (`EchoSession`, the tokens in this page's storage)
 * or the page's side of the server-held one (`ServerSession`, no token here). Both take the same calls.
 */
export type PageSession = EchoSession | ServerSession
