import { ceilingProblem } from '../config'
import { EchoError } from '../errors'
import type { FitCall } from './callCeiling'
import { headersOf } from './tokenOrigins'
import type { FetchFunction } from './tokenProvider'

/** Whether a request carries its own ceiling (`X-Echo-Max-Cost`), read without loading the ceiling's code. */
function hasCeilingHeader(input: RequestInfo | URL, init: RequestInit | undefined): boolean {
  return headersOf(input, init).has('x-echo-max-cost')
}

/**
 * Fits each call under a price ceiling (`callCeiling.ts`): `appCeiling` (`null` for none) and each call's own
 * `X-Echo-Max-Cost` header. A call under neither passes as it is; the ceiling's code and Echo's prices load, in a
 * chunk of their own, with the first call that has one.
 */
export function ceilingGate(appCeiling: number | null): FitCall {
  let fitting: Promise<FitCall> | undefined
  const load = async () => {
    const [{ fitCallUnder }, { echoPrices }] = await Promise.all([import('./callCeiling'), import('./callPrices')])
    return fitCallUnder({ appCeiling: () => appCeiling, prices: echoPrices })
  }
  return async (input, init) => {
    if (appCeiling === null && !hasCeilingHeader(input, init)) return [input, init]
    return (await (fitting ??= load()))(input, init)
  }
}

/** `fetch` (the global one, looked up at call time, when left out) with each call fitted by `ceilingGate(appCeiling)`. */
export function fetchUnderCeiling(fetch: FetchFunction | undefined, appCeiling: number | null): FetchFunction {
  const fitCall = ceilingGate(appCeiling)
  return async (input, init) => {
    const [sentInput, sentInit] = await fitCall(input, init)
    return (fetch ?? globalThis.fetch)(sentInput, sentInit)
  }
}

/** A client option's ceiling, checked: an amount above 0, or `null` for none; a `bad-argument` `EchoError` else. */
export function ceilingOption(what: string, value: unknown): number | null {
  const problem = ceilingProblem(what, value)
  if (problem !== null) throw new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-argument', message: problem })
  return (value as number | null | undefined) ?? null
}
