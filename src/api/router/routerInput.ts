import { EchoError } from '../../errors'
import type { RequestOptions } from '../EchoClient'

/**
 * The body of a router call, checked before anything is sent: an object naming its model (the
 * router would answer a call without one with 422, after the request was made).
 * @internal
 */
export function requireBody<Body extends { model: string }>(body: Body | null | undefined, action: string): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw refused(`The request body must be an object with a model (got ${describe(body)})`, action)
  }
  requireModel(body.model, action)
  return body
}

/** A model id, checked: a non-empty string. @internal */
export function requireModel(model: unknown, action: string): string {
  if (typeof model !== 'string' || model.trim() === '') {
    throw refused(`A model is required, as a non-empty string such as 'gpt-4o-mini' (got ${describe(model)})`, action)
  }
  return model
}

/** A router call's own options, where a caller may pass `null` or nothing: its signal and its price ceiling. @internal */
export function optionsOf(options: RequestOptions | null | undefined): Pick<RouterCallOptions, 'signal' | 'maxCost'> {
  const { signal, maxCost } = options ?? {}
  return { signal, maxCost }
}

type RouterCallOptions = { signal?: AbortSignal | undefined; maxCost?: number | undefined }

function refused(message: string, action: string): EchoError {
  return new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-argument', message, action })
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'string' ? JSON.stringify(value) : typeof value
}
