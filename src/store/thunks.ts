import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit'

import { echoApi } from '../api/query/echoApi'
import { isFollowablePaymentLink } from '../api/paymentLinks'
import { pageOrigin } from '../config'
import type { EchoRouter } from '../api/router/EchoRouter'
import type { FetchFunction } from '../api/tokenProvider'
import type { Balance, PaymentLinkRequest } from '../api/wireTypes'
import type { SignInOptions } from '../auth/EchoSession'
import { sessionStopped } from '../auth/sessionErrors'
import { EchoError, type EchoErrorData } from '../errors'
import type { EchoRootState } from './echoReducer'
import { selectCredit, selectIsAuthenticated } from './selectors'
import { markTopUpReturn, type CheckoutIn } from './money/topUpWatch'
import { dailyLimitProblem } from './money/dailyLimit'
import { runtimeOf } from './EchoRuntime'
import { sessionEchoFetchOf, sessionRouterOf } from './money/billedCalls'

type EchoThunk<Result> = ThunkAction<Promise<Result>, EchoRootState, unknown, UnknownAction>

/**
 * Leaves for Echo's sign-in page (or hands its URL to `navigate`). Status is `loading` until the
 * page leaves.
 */
export const signIn =
  (options: SignInOptions = {}): EchoThunk<void> =>
  (dispatch) =>
    runtimeOf(dispatch).withSession((session) => session.signIn(options))

/** Signs out here and in the other tabs. */
export const signOut = (): EchoThunk<void> => (dispatch) =>
  runtimeOf(dispatch).withSession((session) => session.signOut())

/** The access token, refreshed first if it has expired; `null` when nobody is signed in. */
export const getToken = (): EchoThunk<string | null> => (dispatch) =>
  runtimeOf(dispatch).withSession((session) => session.getToken())

/**
 * Refetches the balance and the free tier now; resolves to the balance. Rejects with an
 * `EchoError`: `Not authenticated` when nobody is signed in (or the user signs out, or the session
 * ends, before the answer arrives), or the reason the balance could not be fetched.
 */
export const refreshBalance = (): EchoThunk<Balance> => async (dispatch, getState) => {
  if (!selectIsAuthenticated(getState())) throw notAuthenticated()
  const { appId } = runtimeOf(dispatch).config
  const options = { forceRefetch: true, subscribe: false } as const
  const signedOutMeanwhile = () => notAuthenticated('fetching balance')
  const [balance] = await Promise.all([
    dispatch(echoApi.endpoints.getBalance.initiate(undefined, options))
      .unwrap()
      // A sign-out while the call ran resets the API cache: Redux Toolkit from 2.15 rejects the
      // call it removed (earlier versions answer with nothing, below). Either way the user is gone.
      .catch((error: unknown) =>
        rethrowAsEchoError(selectIsAuthenticated(getState()) ? error : signedOutMeanwhile().toJSON()),
      ),
    // The free tier is extra: an app without one must not make the paid balance fail.
    dispatch(echoApi.endpoints.getFreeBalance.initiate(appId, options))
      .unwrap()
      .catch(() => null),
  ])
  if (balance === undefined) throw signedOutMeanwhile()
  return balance
}

/**
 * Sets the signed-in user's own daily limit for this app, in US dollars (`null`: no limit), kept for
 * them in this browser and seen by every tab; it replaces `EchoConfig.dailyLimit` for them. Rejects
 * with a `bad-argument` `EchoError` for an amount that is not a number from 0.01 to 10,000, and with
 * `Not authenticated` when nobody is signed in.
 */
export const setDailyLimit =
  (limit: number | null): EchoThunk<void> =>
  (dispatch, getState) => {
    const problem = dailyLimitProblem(limit)
    if (problem !== null) return Promise.reject(problem)
    if (!selectIsAuthenticated(getState())) return Promise.reject(notAuthenticated('setting the daily limit'))
    const runtime = runtimeOf(dispatch)
    // A stopped store keeps nothing: the limit would be lost without a word.
    if (!runtime.isRunning) return Promise.reject(sessionStopped('setting the daily limit'))
    runtime.chooseDailyLimit(limit)
    return Promise.resolve()
  }

/** Options of {@link createPaymentLink}. */
export interface CreatePaymentLinkOptions {
  /**
   * Where the app opens checkout: `new-tab` or `this-tab`. Given, the success URL is marked with it
   * (`echo_top_up`), so the page checkout returns to tells the app's other tabs at once and, when
   * it is a tab the app opened, closes itself. Left out, the success URL is left as it is (the page
   * origin by default).
   */
  checkoutIn?: CheckoutIn | undefined
}

/**
 * Creates a payment link and resolves to its URL; `description` defaults to `Echo Credits` and
 * `successUrl` to the page origin. Rejects with an `EchoError`: `Not authenticated` when nobody is
 * signed in, or a link that is neither `https:` nor on the configured `apiUrl` (a server must
 * never make an app navigate to `javascript:`).
 */
export const createPaymentLink =
  (request: PaymentLinkRequest, { checkoutIn }: CreatePaymentLinkOptions = {}): EchoThunk<string> =>
  async (dispatch, getState) => {
    if (!selectIsAuthenticated(getState())) throw notAuthenticated()
    const { apiUrl } = runtimeOf(dispatch).config
    const returnTo = request?.successUrl ?? pageOrigin()
    const creditBefore = selectCredit(getState())
    const marked =
      checkoutIn && returnTo ? { ...request, successUrl: markTopUpReturn(returnTo, checkoutIn, creditBefore) } : request
    const answer = await dispatch(echoApi.endpoints.createPaymentLink.initiate(marked))
      .unwrap()
      .catch(rethrowAsEchoError)
    const { url } = answer.paymentLink
    if (!isFollowablePaymentLink(url, apiUrl)) {
      throw new EchoError({
        code: 'UNKNOWN_ERROR',
        reason: 'foreign-origin',
        message: `Refusing to open a payment link that is neither https nor on ${apiUrl}: ${url}`,
        action: 'creating payment link',
      })
    }
    return url
  }

function rethrowAsEchoError(error: unknown): never {
  throw EchoError.fromJSON(error as EchoErrorData)
}

function notAuthenticated(action?: string): EchoError {
  return new EchoError({ code: 'UNKNOWN_ERROR', reason: 'not-authenticated', message: 'Not authenticated', action })
}

/**
 * The model router of the store's session: calls billed to the signed-in user, sharing the
 * session's single refresh; a 402 marks the user out of credits, and the balance follows spending.
 *
 * @example
 * const router = store.dispatch(getEchoRouter())
 */
export const getEchoRouter = (): ThunkAction<EchoRouter, EchoRootState, unknown, UnknownAction> => (dispatch) =>
  sessionRouterOf(runtimeOf(dispatch))

/**
 * The session's authorized `fetch`, for a model client an app already uses (the AI SDK's
 * providers, `openai`, `@anthropic-ai/sdk`, `@google/genai`): the same token, refresh and billing
 * as `getEchoRouter()`, and the token sent only to the session's `apiUrl` and `baseRouterUrl`.
 *
 * @example
 * const fetch = store.dispatch(getEchoFetch())
 * const openai = new OpenAI({ apiKey: 'echo', baseURL: routerUrl, fetch, dangerouslyAllowBrowser: true })
 */
export const getEchoFetch = (): ThunkAction<FetchFunction, EchoRootState, unknown, UnknownAction> => (dispatch) =>
  sessionEchoFetchOf(runtimeOf(dispatch))
