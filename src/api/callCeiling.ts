// The per-call price ceiling on a fetch: the lowest of the app's ceiling and the call's own `X-Echo-Max-Cost`
// header (removed before the request leaves), the call priced from Echo's prices before it is sent, and then
// refused, or sent with its output limit lowered so that its answer cannot cost more (docs/api.md, "The price
// ceiling").
import { ceilingProblem } from '../config'
import { EchoError } from '../errors'
import { fitUnderCeiling, modelEndpointOf, modelOf, type ModelPrice } from './callCost'
import { headersOf, urlOf } from './tokenOrigins'
import type { FetchFunction } from './tokenProvider'

/** The request header with a call's own ceiling, in US dollars (`X-Echo-Max-Cost: 0.05`); never sent on. */
export const MAX_COST_HEADER = 'X-Echo-Max-Cost'

/** A model's price by its id, `null` for a model Echo states no price for. */
export type PriceOf = (model: string) => ModelPrice | null

/** An amount of US dollars as people read it: cents, or the first figures under a cent (`$0.004`). */
export function usdText(amount: number): string {
  return amount >= 0.01 ? `$${amount.toFixed(2)}` : `$${Number(amount.toPrecision(2))}`
}

/** A call refused before it was sent, because it could cost more than `ceiling` (`model`'s price `known`). */
export function callCostError({ model, atMost }: { model: string; atMost: number | null }, ceiling: number): EchoError {
  const userMessage =
    atMost === null
      ? `Echo states no price for ${model}, so this answer cannot be held to ${usdText(ceiling)}.`
      : `This answer could cost up to ${usdText(atMost)}; this app allows ${usdText(ceiling)} per answer.`
  const message =
    atMost === null
      ? `No price is known for the model "${model}", and a ceiling of ${usdText(ceiling)} per call is set: the call was not sent`
      : `The call's input alone could cost up to ${usdText(atMost)}, over its ceiling of ${usdText(ceiling)}: the call was not sent`
  return new EchoError({ code: 'UNKNOWN_ERROR', reason: 'call-cost-limit', message, userMessage })
}

/** The request's headers without the ceiling header, and the call's own ceiling read from it (`undefined`: none). */
function takeHeader(input: RequestInfo | URL, init: RequestInit | undefined) {
  const headers = headersOf(input, init)
  const raw = headers.get(MAX_COST_HEADER)
  if (raw === null) return { headers: undefined, ceiling: undefined }
  headers.delete(MAX_COST_HEADER)
  const ceiling = raw.trim() === '' ? Number.NaN : Number(raw)
  const problem = ceilingProblem(`The ${MAX_COST_HEADER} header`, Number.isNaN(ceiling) ? raw : ceiling)
  if (problem !== null) throw new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-argument', message: problem })
  return { headers, ceiling }
}

/** The body of a request as text, or `null` when it is not text (a form, a file, a stream). */
async function bodyTextOf(input: RequestInfo | URL, init: RequestInit | undefined): Promise<string | null> {
  if (typeof init?.body === 'string') return init.body
  if (init?.body === undefined && input instanceof Request) return input.clone().text()
  return null
}

/** A call's arguments as they are to be sent: the ceiling header gone, the output limit lowered where it had to be. */
export type FitCall = (
  input: RequestInfo | URL,
  init: RequestInit | undefined,
) => Promise<[RequestInfo | URL, RequestInit | undefined]>

/**
 * Fits each call under the ceiling: `appCeiling()` (the app's, `null` for none) and the call's header, the lowest;
 * no ceiling leaves the call as it is (but for the header, which never leaves). Rejects, before anything is sent,
 * a call that could cost more whatever its answer, and one it cannot price (a model without a price, a body that
 * is not JSON) while a ceiling is set.
 */
export function fitCallUnder({
  appCeiling,
  prices,
}: {
  appCeiling: () => number | null
  prices: () => Promise<PriceOf>
}): FitCall {
  return async (input, init) => {
    const taken = takeHeader(input, init)
    const ceilings = [appCeiling(), taken.ceiling].filter((value): value is number => typeof value === 'number')
    const sent = taken.headers === undefined ? init : { ...init, headers: taken.headers }
    if (ceilings.length === 0) return [input, sent]
    const ceiling = Math.min(...ceilings)
    const url = new URL(urlOf(input), (globalThis as { location?: { href?: string } }).location?.href)
    const endpoint = modelEndpointOf(url.pathname)
    const bodyText = await bodyTextOf(input, sent)
    const body = jsonObjectOf(bodyText)
    const model = endpoint === null || body === null ? null : modelOf(endpoint, url.pathname, body)
    const price = model === null ? null : (await prices())(model)
    if (endpoint === null || body === null || bodyText === null || model === null || price === null)
      throw callCostError({ model: model ?? `the call to ${url.pathname}`, atMost: null }, ceiling)
    const decision = fitUnderCeiling({ endpoint, model, body, bodyText }, price, ceiling)
    if (decision.kind === 'refuse') throw callCostError(decision.cost, ceiling)
    if (!decision.lowered) return [input, sent]
    const request =
      input instanceof Request ? { method: input.method, headers: input.headers, signal: input.signal } : {}
    return [input instanceof Request ? input.url : input, { ...request, ...sent, body: JSON.stringify(decision.body) }]
  }
}

/** `fetch` with each call fitted under the ceiling first ({@link fitCallUnder}). */
export function withCallCeiling(fetch: FetchFunction, options: Parameters<typeof fitCallUnder>[0]): FetchFunction {
  const fit = fitCallUnder(options)
  return async (input, init) => fetch(...(await fit(input, init)))
}

function jsonObjectOf(text: string | null): Record<string, unknown> | null {
  try {
    const value: unknown = text === null ? null : JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}
