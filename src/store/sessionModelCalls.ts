import type { Dispatch } from '@reduxjs/toolkit'

import { createEchoFetch } from '../api/authorizedFetch'
import { sessionEchoApi } from '../api/echoApi'
import { createEchoRouter } from '../api/router/createEchoRouter'
import { urlOf } from '../api/tokenOrigins'
import type { EchoRouter } from '../api/router/EchoRouter'
import type { FetchFunction } from '../api/tokenProvider'
import type { EchoSession } from '../auth/EchoSession'
import { insufficientFundsDetected } from './balanceSlice'
import { whenBodyEnds } from './whenBodyEnds'

/** Calls that end within this long of each other share one balance refetch. */
export const BALANCE_REFETCH_DELAY_MS = 300

const BILLED_FETCH = Symbol('echo-rtk billed fetch')
const SESSION_FETCH = Symbol('echo-rtk session fetch')
const SESSION_ROUTER = Symbol('echo-rtk session router')

/**
 * The plain fetch under every model call of a store's session, which keeps the store told about
 * the money: a 402 marks the user out of credits, and when a router answer ends (read through,
 * streamed to its end, stopped or failed) the balance is refetched, once for a burst of calls.
 */
function billedFetch(session: EchoSession, dispatch: Dispatch): FetchFunction {
  return session.memo(BILLED_FETCH, () => {
    const { setTimeout, clearTimeout } = session.timers
    const routerOrigin = `${new URL(session.config.baseRouterUrl).origin}/`
    let pending: unknown
    session.onStop(() => clearTimeout(pending))
    const refetchBalanceSoon = () => {
      clearTimeout(pending)
      pending = setTimeout(() => dispatch(sessionEchoApi.util.invalidateTags(['Balance'])), BALANCE_REFETCH_DELAY_MS)
    }
    return async (input, init) => {
      const response = await session.fetch(input, init)
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
  })
}

/**
 * The session's authorized fetch for any model client (`useEchoFetch()`): the user's token, the
 * one shared refresh and marked retry, the money kept in the store, and the token sent only to the
 * session's API and router origins.
 */
export function sessionEchoFetch(session: EchoSession, dispatch: Dispatch): FetchFunction {
  return session.memo(SESSION_FETCH, () =>
    createEchoFetch({
      tokenProvider: session.coordinator,
      fetch: billedFetch(session, dispatch),
      allowedOrigins: [session.config.apiUrl, session.config.baseRouterUrl],
    }),
  )
}

/** The model router of a store's session, made on first use, on the same billed fetch. */
export function sessionRouter(session: EchoSession, dispatch: Dispatch): EchoRouter {
  return session.memo(SESSION_ROUTER, () =>
    createEchoRouter({ baseRouterUrl: session.config.baseRouterUrl, tokenProvider: session.coordinator, fetch: billedFetch(session, dispatch) }),
  )
}
