import type { Dispatch } from '@reduxjs/toolkit'

import { ceilingGate } from '../../api/ceilingGate'
import { routerOver } from '../../api/router/routerOver'
import type { AuthorizedSend } from '../../api/authorizedFetch'
import type { EchoRouter } from '../../api/router/EchoRouter'
import { assertTokenOrigin, originOf, saysOutOfCredits, urlOf } from '../../api/tokenOrigins'
import type { FetchFunction } from '../../api/tokenProvider'
import type { PageSession } from '../../auth/pageSession'
import type { EchoEnvironment } from '../../auth/environment'
import type { ResolvedEchoConfig } from '../../config'
import { insufficientFundsDetected } from '../balanceSlice'
import type { EchoRootState } from '../echoReducer'
import { selectCredit, selectIsAuthenticated } from '../selectors'
import { refuseOverDailyLimit } from './dailyLimit'
import { balanceAskedAgain } from './balanceAskedAgain'
import type { BalanceFollower } from './balanceFollower'
import type { SpendWatch } from './spendWatch'

/**
 * Calls that end within this long of each other share one balance refetch, which comes once none has ended for this
 * long.
 */
export const BALANCE_REFETCH_DELAY_MS = 300

/** How long a billed call made before the first balance waits for it (a balance that hangs must not hold the call). */
export const FIRST_BALANCE_WAIT_MS = 5_000

// Every billed call of a store: the fetch under them (the one gate of the daily limit, the 402, the balance
// refetched after a call and the spend it cost), and the session's fetch and router that send over it.

/** What of the store's runtime the session's fetch and router are made over, and kept by (one of each per store). */
export interface SessionRuntime {
  readonly config: ResolvedEchoConfig
  withSession<T>(act: (session: PageSession) => T | Promise<T>): Promise<T>
  billedFetch(make: (parts: BilledFetchParts) => BilledFetch): FetchFunction
  echoFetch(make: () => FetchFunction): FetchFunction
  router(make: () => EchoRouter): EchoRouter
}

/** The session's fetch for model clients (`useEchoFetch()`, `getEchoFetch()`), the store's runtime keeps it. */
export const sessionEchoFetchOf = (runtime: SessionRuntime): FetchFunction =>
  runtime.echoFetch(() => createSessionEchoFetch(runtime, runtime.billedFetch(createBilledFetch)))

/** The session's model router (`useEchoRouter()`, `getEchoRouter()`), the store's runtime keeps it. */
export const sessionRouterOf = (runtime: SessionRuntime): EchoRouter =>
  runtime.router(() => createSessionRouter(runtime, runtime.billedFetch(createBilledFetch)))

/** What the billed fetch is made of: the store's settings, browser and state, its spend and its balance. */
export interface BilledFetchParts {
  config: Pick<ResolvedEchoConfig, 'baseRouterUrl' | 'serverOrigins' | 'maxCallCost'>
  environment: Pick<EchoEnvironment, 'fetch' | 'setTimeout' | 'clearTimeout'>
  dispatch: Dispatch
  getState: () => EchoRootState
  spend: Pick<SpendWatch, 'callStarted' | 'callRefused' | 'callEnded'>
  balance: Pick<BalanceFollower, 'loadNow'>
}

/** The billed fetch, and how to cancel the balance refetch it has pending (the store's runtime stops). */
export interface BilledFetch {
  fetch: FetchFunction
  stop(): void
}

/**
 * The plain fetch under every model call of a store's session, and the one gate of the user's
 * money: a billed call past today's limit is refused here before anything is sent; a 402 marks the
 * user out of credits; and when an answer that billed the user ends (the router's, or an app
 * server's route that spent the token there: read through, streamed to its end, stopped or failed)
 * the balance is refetched, once for a burst of calls, and the spend watch learns what it cost. From
 * the app's own servers only a 402 that says so (`X-Echo-Reason: insufficient-funds`) is Echo's.
 */
export function createBilledFetch({
  config,
  environment,
  dispatch,
  getState,
  spend,
  balance,
}: BilledFetchParts): BilledFetch {
  const routerOrigin = new URL(config.baseRouterUrl).origin
  const fitCall = ceilingGate(config.maxCallCost)
  const servers = config.serverOrigins
  let pending: unknown
  let endedWhileWaiting = false
  const stop = () => {
    environment.clearTimeout(pending)
    pending = undefined
    endedWhileWaiting = false
  }
  // One timer for a burst, set back once more when a call ends while it waits, rather than a new
  // timer on every call: that costs more than the rest of a call's own work.
  const refetchWhenQuiet = () => {
    if (endedWhileWaiting) {
      endedWhileWaiting = false
      pending = environment.setTimeout(refetchWhenQuiet, BALANCE_REFETCH_DELAY_MS)
    } else {
      pending = undefined
      dispatch(balanceAskedAgain({ by: 'billed-call' }))
    }
  }
  const refetchBalanceSoon = () => {
    if (pending === undefined) pending = environment.setTimeout(refetchWhenQuiet, BALANCE_REFETCH_DELAY_MS)
    else endedWhileWaiting = true
  }
  const ended = () => {
    spend.callEnded()
    refetchBalanceSoon()
  }
  // What a call cost is the credit before it and after it. A call made before the first balance is
  // in (a sign-in that sends its call at once, a test's first click) has it asked for at once and
  // waits for it, so that its cost is counted, towards the daily limit too; never longer than
  // FIRST_BALANCE_WAIT_MS.
  const creditKnown = async () => {
    let handle: unknown
    const givenUp = new Promise<void>((resolve) => (handle = environment.setTimeout(resolve, FIRST_BALANCE_WAIT_MS)))
    await Promise.race([balance.loadNow(), givenUp])
    environment.clearTimeout(handle)
  }
  const fetch: FetchFunction = async (input, init) => {
    const origin = originOf(input)
    const fromServer = origin !== null && servers.includes(origin)
    // Only the router bills, directly or behind an app's route (a call to Echo's own API may be the
    // balance call itself).
    const billed = origin === routerOrigin || fromServer
    if (!billed) return environment.fetch(input, init)
    // Past today's limit a billed call is refused before anything is sent.
    refuseOverDailyLimit(getState())
    if (selectCredit(getState()) === null && selectIsAuthenticated(getState())) await creditKnown()
    // Under a price ceiling a call to the router is priced first: refused here, or sent with its output limit
    // lowered. An app server's route is that server's to bound (echo-rtk/server's own ceiling).
    if (urlOf(input).startsWith(`${config.baseRouterUrl}/`)) [input, init] = await fitCall(input, init)
    spend.callStarted()
    let response: Response
    try {
      response = await environment.fetch(input, init)
    } catch (error) {
      spend.callEnded()
      throw error
    }
    if (response.status === 402 && (!fromServer || saysOutOfCredits(response))) {
      dispatch(insufficientFundsDetected())
      spend.callRefused()
    }
    // A 401 is cured by the refresh and sent again; only the answer that counts is watched.
    if (response.status === 401) {
      spend.callEnded()
      return response
    }
    // A whole answer (of known length, or JSON) was billed before it was sent; only a stream is
    // billed as it goes, so only a stream is watched to its end.
    if (response.headers.has('content-length')) {
      ended()
      return response
    }
    if (!isStream(response)) {
      ended()
      return readWhole(response)
    }
    return whenBodyEnds(response, init?.signal, ended)
  }
  return { fetch, stop }
}

/**
 * Whether an answer without a length streams: anything but JSON (Echo's router sends streams with no Content-Type at
 * all).
 */
function isStream(response: Response): boolean {
  return !/[/+]json\b/i.test(response.headers.get('content-type') ?? '')
}

/**
 * A JSON answer sent in chunks, read whole by the browser itself and handed on from memory. A body
 * read chunk by chunk in script (as the AI SDK's clients read it) is, in Chromium, sometimes listed
 * as a cancelled request once done (net::ERR_ABORTED, though every byte came), which DevTools and
 * monitoring report as a failure; the browser's own reading is not.
 */
async function readWhole(response: Response): Promise<Response> {
  return withBody(response, await response.arrayBuffer())
}

/**
 * The session's authorized fetch for any model client (`useEchoFetch()`), over `billedFetch`: the
 * user's token (or, in server mode, the session's cookie to the app's own server), the one shared
 * refresh and marked retry, the money kept in the store, and nothing sent where the session does not
 * send (browser mode: the API and router origins and the app's own `serverOrigins`).
 */
function createSessionEchoFetch(runtime: SessionRuntime, billedFetch: FetchFunction): FetchFunction {
  let echoFetch: FetchFunction | undefined
  const send = (session: PageSession, input: RequestInfo | URL, init?: RequestInit) =>
    (echoFetch ??= session.echoFetchOver(billedFetch))(input, init)
  if (!runtime.config.signInOnDemand)
    // Once made, the session's fetch is called straight: no wait on the session a call would pay for.
    return (input, init) =>
      echoFetch !== undefined ? echoFetch(input, init) : runtime.withSession((session) => send(session, input, init))
  const origins = callOrigins(runtime.config)
  // Async, so a refusal is a rejected promise as `fetch` gives; what runs before its first await still
  // runs inside the click that made the call, so the sign-in window may open.
  return async (input, init) => {
    // A call that could never carry the token opens no sign-in window: it fails as it would signed in.
    assertTokenOrigin(input, origins)
    return runtime.withSession((session) => afterSignInForCall(session, () => send(session, input, init)))
  }
}

/** Where the session's fetch sends: the page's own server in server mode; else Echo's API and router, and the app's servers. */
function callOrigins(config: ResolvedEchoConfig): string[] {
  const { apiUrl, baseRouterUrl, serverOrigins, serverUrl } = config
  const urls = config.session === 'server' ? [serverUrl, ...serverOrigins] : [apiUrl, baseRouterUrl, ...serverOrigins]
  return urls.map((url) => new URL(url).origin)
}

/** The model router of a store's session, on the same billed fetch. */
function createSessionRouter(runtime: SessionRuntime, billedFetch: FetchFunction): EchoRouter {
  const { baseRouterUrl, signInOnDemand } = runtime.config
  let sendAuthorized: AuthorizedSend | undefined
  const send = (session: PageSession, input: RequestInfo | URL, init?: RequestInit) =>
    (sendAuthorized ??= session.sendOver(billedFetch))(input, init)
  return routerOver(
    (input, init) =>
      runtime.withSession((session) =>
        signInOnDemand ? afterSignInForCall(session, () => send(session, input, init)) : send(session, input, init),
      ),
    baseRouterUrl,
  )
}

/**
 * `call()`, after the sign-in it needs when nobody is signed in and the app asked for sign-in on
 * demand (in a window, opened now, still inside the click that made the call); at once otherwise.
 */
function afterSignInForCall<T>(session: PageSession, call: () => Promise<T>): Promise<T> {
  const signingIn = session.signInForCall()
  return signingIn === undefined ? call() : signingIn.then(call)
}

/**
 * `response` with `onEnd` called once when its body is done with: read to the end, failed,
 * cancelled (a `break` out of a stream), or aborted through `signal`. A body-less answer ends at once.
 */
export function whenBodyEnds(response: Response, signal: AbortSignal | null | undefined, onEnd: () => void): Response {
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    signal?.removeEventListener('abort', end)
    onEnd()
  }
  if (response.body === null) {
    end()
    return response
  }
  signal?.addEventListener('abort', end, { once: true })
  const reader = response.body.getReader()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (done) {
          controller.close()
          end()
        } else {
          controller.enqueue(value)
        }
      } catch (error) {
        controller.error(error)
        end()
      }
    },
    cancel(reason) {
      end()
      return reader.cancel(reason)
    },
  })
  return withBody(response, body)
}

/** `response` over again with `body`: the same status, headers and URL. @internal */
export function withBody(response: Response, body: BodyInit): Response {
  const copy = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
  Object.defineProperty(copy, 'url', { value: response.url })
  return copy
}
