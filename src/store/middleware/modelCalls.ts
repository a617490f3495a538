import { createEchoFetch } from '../../api/authorizedFetch'
import { sessionEchoApi } from '../../api/query/sessionEchoApi'
import { createEchoRouter } from '../../api/router/createEchoRouter'
import type { EchoRouter } from '../../api/router/EchoRouter'
import { urlOf } from '../../api/tokenOrigins'
import type { FetchFunction } from '../../api/tokenProvider'
import { whenBodyEnds } from '../../api/whenBodyEnds'
import { insufficientFundsDetected } from '../balanceSlice'
import type { Owned } from './storeOwned'

/** Calls that end within this long of each other share one balance refetch. */
export const BALANCE_REFETCH_DELAY_MS = 300

/**
 * The plain fetch under every model call of a store's session, which keeps the store told about
 * the money: a 402 marks the user out of credits, and when a router answer ends (read through,
 * streamed to its end, stopped or failed) the balance is refetched, once for a burst of calls.
 */
const billedFetch: Owned<FetchFunction> = ({ session, environment, dispatch, onStop }) => {
  const routerOrigin = `${new URL(session.config.baseRouterUrl).origin}/`
  let pending: unknown
  let lastEndAt = 0
  onStop(() => {
    environment.clearTimeout(pending)
    pending = undefined
  })
  // One timer for a burst, pushed back when it fires early rather than replaced on every call:
  // a timer per call costs more than the rest of the call's own work.
  const refetchWhenQuiet = () => {
    const quietFor = environment.now() - lastEndAt
    if (quietFor < BALANCE_REFETCH_DELAY_MS) {
      pending = environment.setTimeout(refetchWhenQuiet, BALANCE_REFETCH_DELAY_MS - quietFor)
      return
    }
    pending = undefined
    dispatch(sessionEchoApi.util.invalidateTags(['Balance']))
  }
  const refetchBalanceSoon = () => {
    lastEndAt = environment.now()
    pending ??= environment.setTimeout(refetchWhenQuiet, BALANCE_REFETCH_DELAY_MS)
  }
  return async (input, init) => {
    const response = await environment.fetch(input, init)
    if (response.status === 402) dispatch(insufficientFundsDetected())
    // A 401 is cured by the refresh and sent again; only the answer that counts is watched. Only
    // the router bills (and a call to Echo's own API may be the balance call itself).
    if (response.status === 401 || !urlOf(input).startsWith(routerOrigin)) return response
    // An answer of known length was billed whole before it was sent; only a stream (which has
    // none) is billed as it goes, so only a stream is watched to its end (watching costs a copy).
    if (response.headers.has('content-length')) {
      refetchBalanceSoon()
      return response
    }
    return whenBodyEnds(response, init?.signal, refetchBalanceSoon)
  }
}

/**
 * The session's authorized fetch for any model client (`useEchoFetch()`): the user's token, the
 * one shared refresh and marked retry, the money kept in the store, and the token sent only to the
 * session's API and router origins.
 */
export const sessionEchoFetch: Owned<FetchFunction> = ({ session, owned }) =>
  createEchoFetch({
    tokenProvider: session.coordinator,
    fetch: owned(billedFetch),
    allowedOrigins: [session.config.apiUrl, session.config.baseRouterUrl],
  })

/** The model router of a store's session, on the same billed fetch. */
export const sessionRouter: Owned<EchoRouter> = ({ session, owned }) =>
  createEchoRouter({ baseRouterUrl: session.config.baseRouterUrl, tokenProvider: session.coordinator, fetch: owned(billedFetch) })
