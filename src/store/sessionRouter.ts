import type { Dispatch } from '@reduxjs/toolkit'

import { sessionEchoApi } from '../api/echoApi'
import { createEchoRouter } from '../api/router/createEchoRouter'
import type { EchoRouter } from '../api/router/EchoRouter'
import type { FetchFunction } from '../api/tokenProvider'
import type { EchoSession } from '../auth/EchoSession'
import { insufficientFundsDetected } from './balanceSlice'
import { whenBodyEnds } from './whenBodyEnds'

/** Calls that end within this long of each other share one balance refetch. */
export const BALANCE_REFETCH_DELAY_MS = 300

const SESSION_ROUTER = Symbol('echo-rtk session router')

/**
 * The model router of a store's session, made on first use: its single refresh, plus what the
 * store needs to know about the money. A 402 marks the user out of credits; when a call ends
 * (answered, streamed to the end, stopped or failed) the balance is refetched, once for a burst of
 * calls, so what the user sees follows what they spend.
 */
export function sessionRouter(session: EchoSession, dispatch: Dispatch): EchoRouter {
  return session.memo(SESSION_ROUTER, () => {
    const { setTimeout, clearTimeout } = session.timers
    let pending: unknown
    session.onStop(() => clearTimeout(pending))
    const refetchBalanceSoon = () => {
      clearTimeout(pending)
      pending = setTimeout(() => dispatch(sessionEchoApi.util.invalidateTags(['Balance'])), BALANCE_REFETCH_DELAY_MS)
    }
    const billedFetch: FetchFunction = async (input, init) => {
      const response = await session.fetch(input, init)
      if (response.status === 402) dispatch(insufficientFundsDetected())
      // A 401 is cured by the refresh and sent again; only the answer that counts is watched.
      return response.status === 401 ? response : whenBodyEnds(response, init?.signal, refetchBalanceSoon)
    }
    return createEchoRouter({ baseRouterUrl: session.config.baseRouterUrl, tokenProvider: session.coordinator, fetch: billedFetch })
  })
}
