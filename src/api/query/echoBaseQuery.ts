import type { BaseQueryFn } from '@reduxjs/toolkit/query'

import { EchoError, type EchoErrorData } from '../../errors'
import { sessionPortOf } from './sessionPort'
import { requestJson, type JsonRequest } from '../requestJson'

/** A request, or a function that builds it (and may refuse bad input by throwing). */
export type EchoQueryArgs = JsonRequest | (() => JsonRequest)

/**
 * The baseQuery of `echoApi`: every endpoint goes through the session's authorized fetch, so it
 * gets the single shared refresh and the one marked retry. It never throws: failures come back as
 * `{ error: EchoErrorData }`.
 */
export const echoBaseQuery: BaseQueryFn<EchoQueryArgs, unknown, EchoErrorData> = async (args, api) => {
  try {
    const session = sessionPortOf(api.dispatch)
    const request = typeof args === 'function' ? args() : args
    return {
      data: await requestJson(session.sendAuthorized, session.config.apiUrl, { ...request, signal: api.signal }),
    }
  } catch (error) {
    return { error: EchoError.from(error).toJSON() }
  }
}
