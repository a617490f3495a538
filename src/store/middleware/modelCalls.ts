import { createAuthorizedSend, createEchoFetch, type AuthorizedSend } from '../../api/authorizedFetch'
import { echoApi } from '../../api/query/echoApi'
import { routerOver } from '../../api/router/createEchoRouter'
import type { EchoRouter } from '../../api/router/EchoRouter'
import { assertTokenOrigin, originOf, saysOutOfCredits } from '../../api/tokenOrigins'
import type { FetchFunction } from '../../api/tokenProvider'
import { whenBodyEnds } from '../../api/whenBodyEnds'
import { insufficientFundsDetected } from '../balanceSlice'
import type { Owned, StoreSession } from '../storeSession'

/**
 * Calls that end within this long of each other share one balance refetch, which comes once none has ended for this
 * long.
 */
export const BALANCE_REFETCH_DELAY_MS = 300

/**
 * The plain fetch under every model call of a store's session, which keeps the store told about
 * the money: a 402 marks the user out of credits, and when an answer that billed the user ends
 * (the router's, or an app server's route that spent the token there: read through, streamed to
 * its end, stopped or failed) the balance is refetched, once for a burst of calls, and the money
 * watch learns what it cost. From the app's own servers only a 402 that says so
 * (`X-Echo-Reason: insufficient-funds`) is Echo's.
 */
const billedFetch: Owned<FetchFunction> = ({ session, environment, dispatch, money, onStop }) => {
  const routerOrigin = new URL(session.config.baseRouterUrl).origin
  const servers = session.config.serverOrigins
  let pending: unknown
  let endedWhileWaiting = false
  onStop(() => {
    environment.clearTimeout(pending)
    pending = undefined
    endedWhileWaiting = false
  })
  // One timer for a burst, set back once more when a call ends while it waits, rather than a new
  // timer on every call: that costs more than the rest of a call's own work.
  const refetchWhenQuiet = () => {
    if (endedWhileWaiting) {
      endedWhileWaiting = false
      pending = environment.setTimeout(refetchWhenQuiet, BALANCE_REFETCH_DELAY_MS)
    } else {
      pending = undefined
      dispatch(echoApi.util.invalidateTags(['Balance']))
    }
  }
  const refetchBalanceSoon = () => {
    if (pending === undefined) pending = environment.setTimeout(refetchWhenQuiet, BALANCE_REFETCH_DELAY_MS)
    else endedWhileWaiting = true
  }
  const ended = () => {
    money.callEnded()
    refetchBalanceSoon()
  }
  return async (input, init) => {
    const origin = originOf(input)
    const fromServer = origin !== null && servers.includes(origin)
    // Only the router bills, directly or behind an app's route (a call to Echo's own API may be the
    // balance call itself).
    const billed = origin === routerOrigin || fromServer
    if (!billed) return environment.fetch(input, init)
    money.callStarted()
    let response: Response
    try {
      response = await environment.fetch(input, init)
    } catch (error) {
      money.callEnded()
      throw error
    }
    if (response.status === 402 && (!fromServer || saysOutOfCredits(response))) {
      dispatch(insufficientFundsDetected())
      money.callRefused()
    }
    // A 401 is cured by the refresh and sent again; only the answer that counts is watched.
    if (response.status === 401) {
      money.callEnded()
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
  const body = await response.arrayBuffer()
  const whole = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
  Object.defineProperty(whole, 'url', { value: response.url })
  return whole
}

/**
 * The session's authorized fetch for any model client (`useEchoFetch()`): the user's token, the
 * one shared refresh and marked retry, the money kept in the store, and the token sent only to the
 * session's API and router origins and the app's own `serverOrigins`.
 */
export const sessionEchoFetch: Owned<FetchFunction> = ({ session, money, owned }) => {
  const { apiUrl, baseRouterUrl, serverOrigins } = session.config
  const echoFetch = createEchoFetch({
    tokenProvider: session.coordinator,
    fetch: owned(billedFetch),
    allowedOrigins: [apiUrl, baseRouterUrl],
    serverOrigins,
  })
  const billedOrigins = [baseRouterUrl, ...serverOrigins].map((url) => new URL(url).origin)
  // Past today's limit a billed call is refused before anything is sent (the balance call is not billed).
  const withinLimit: FetchFunction = (input, init) => {
    const refusal = billedOrigins.includes(originOf(input) ?? '') ? money.refusal() : null
    return refusal === null ? echoFetch(input, init) : Promise.reject(refusal)
  }
  if (!session.config.signInOnDemand) return withinLimit
  const origins = [apiUrl, baseRouterUrl, ...serverOrigins].map((url) => new URL(url).origin)
  return (input, init) => {
    // A call that could never carry the token opens no sign-in window: it fails as it would signed in.
    assertTokenOrigin(input, origins)
    return afterSignInForCall(session, () => withinLimit(input, init))
  }
}

/** The model router of a store's session, on the same billed fetch. */
export const sessionRouter: Owned<EchoRouter> = ({ session, money, owned }) => {
  const { baseRouterUrl, signInOnDemand } = session.config
  const sendAuthorized = createAuthorizedSend({ tokenProvider: session.coordinator, fetch: owned(billedFetch) })
  const withinLimit: AuthorizedSend = (input, init) => {
    const refusal = money.refusal()
    return refusal === null ? sendAuthorized(input, init) : Promise.reject(refusal)
  }
  const send: AuthorizedSend = signInOnDemand
    ? (input, init) => afterSignInForCall(session, () => withinLimit(input, init))
    : withinLimit
  return routerOver(send, baseRouterUrl)
}

/**
 * `call()`, after the sign-in it needs when nobody is signed in and the app asked for sign-in on
 * demand (in a window, opened now, still inside the click that made the call); at once otherwise.
 */
function afterSignInForCall<T>(session: StoreSession['session'], call: () => Promise<T>): Promise<T> {
  const signingIn = session.signInForCall()
  return signingIn === undefined ? call() : signingIn.then(call)
}
