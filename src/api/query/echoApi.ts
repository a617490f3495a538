import { buildCreateApi, coreModule, reactHooksModule, type TypedUseQuery } from '@reduxjs/toolkit/query/react'
import { skipToken } from '@reduxjs/toolkit/query'

import type { FreeTierBalance } from '../wireTypes'
import type { echoBaseQuery } from './echoBaseQuery'
import { useEchoDispatch, useEchoSelector, useEchoStore } from './echoReduxContext'
import { getStoreSession, isGetStoreSession, storeSessionOf } from './storeSession'
import { API_SETTINGS, echoApiEndpoints, sessionEchoApi } from './sessionEchoApi'

/**
 * `echoApi.middleware`: the store's API's middleware, unless `echoMiddleware` already runs it in
 * this store (asked once, at the first action). Mounted as well, by RTK Query habit, it must
 * neither run that middleware twice nor be the same function twice (Redux Toolkit refuses a store
 * with one middleware listed twice); mounted alone, the session's own message says what is missing.
 */
const echoApiMiddleware: typeof sessionEchoApi.middleware = (store) => {
  const apiMiddleware = sessionEchoApi.middleware(store)
  return (next) => {
    const handle = apiMiddleware(next)
    let echoMiddlewareRunsIt: boolean | undefined
    return (action) => {
      if (isGetStoreSession(action)) return next(action)
      echoMiddlewareRunsIt ??= !isGetStoreSession(store.dispatch(getStoreSession()))
      return echoMiddlewareRunsIt ? next(action) : handle(action)
    }
  }
}

/**
 * The store's API with RTK Query's hooks, reading the store of the nearest <EchoProvider>. Its
 * endpoints are the store's API's and its reducer is the store's API's own, so a store that mounts
 * `echoApi.reducer` at `echoApi` as well, by RTK Query habit, still has one API, and RTK Query's
 * check that a slice and its middleware belong together holds. Both make the same actions for the
 * same slice, so a call from either is one call.
 */
function createEchoApi() {
  const createApi = buildCreateApi(coreModule(), reactHooksModule({ hooks: { useDispatch: useEchoDispatch, useSelector: useEchoSelector, useStore: useEchoStore } }))
  return Object.assign(createApi({ ...API_SETTINGS, endpoints: echoApiEndpoints }), { reducer: sessionEchoApi.reducer, middleware: echoApiMiddleware })
}

/**
 * Echo's API as RTK Query endpoints, mounted at `echoApi`. Its hooks are exported by name
 * (`useGetBalanceQuery`, ...) and read the store of the nearest `<EchoProvider>`. A payment link or a referral marks the balance stale, and so does
 * `refreshBalance()`.
 *
 * It is made when an app imports it or one of its hooks (marked pure, a bundler drops it, and RTK
 * Query's hooks module with it, from an app that does not).
 *
 * @example
 * const { data: balance } = useGetBalanceQuery()
 */
export const echoApi = /* @__PURE__ */ createEchoApi()

/**
 * One generated hook of `echoApi`. A call rather than a plain property read (or destructuring),
 * so that each export below can be marked pure: a bundler then drops the hooks an app does not
 * use, and with them the endpoints above when nothing else needs `echoApi`.
 */
function hookOf<Name extends keyof typeof echoApi>(name: Name): (typeof echoApi)[Name] {
  return echoApi[name]
}

type RawQueryHook = (arg: unknown, options?: unknown) => unknown

/** Whether someone is signed in, read from the store's `echo` slice (the store layer defines it). */
const isSignedIn = (state: unknown) => (state as { echo?: { auth?: { status?: unknown } } }).echo?.auth?.status === 'authenticated'

/**
 * A query hook that needs a user: while nobody is signed in it sends nothing and shows no error,
 * as if skipped, and it runs once someone signs in (and is dropped again at sign-out, so one
 * user's data never shows for the next). `skip` and `skipToken` work as ever. `defaultArg` fills
 * an argument left out.
 */
function signedInQuery<Hook, Guarded = Hook>(hook: Hook, defaultArg?: (dispatch: ReturnType<typeof useEchoDispatch>) => unknown): Guarded {
  return ((arg: unknown, options?: unknown) => {
    const signedIn = useEchoSelector(isSignedIn)
    const dispatch = useEchoDispatch()
    const given = arg === undefined && defaultArg !== undefined && signedIn ? defaultArg(dispatch) : arg
    const result = (hook as RawQueryHook)(signedIn ? given : skipToken, options)
    // A skipped hook keeps showing its last data; after a sign-out that was another user's.
    return signedIn || typeof result !== 'object' || result === null ? result : { ...result, data: undefined, currentData: undefined }
  }) as Guarded
}

/** `useGetFreeBalanceQuery`'s type, its app id optional (`void`: it may be left out). */
type FreeBalanceQueryHook = TypedUseQuery<FreeTierBalance, string | void, typeof echoBaseQuery>

export const useGetAppsQuery = /* @__PURE__ */ signedInQuery(/* @__PURE__ */ hookOf('useGetAppsQuery'))
export const useGetAppQuery = /* @__PURE__ */ signedInQuery(/* @__PURE__ */ hookOf('useGetAppQuery'))
export const useGetBalanceQuery = /* @__PURE__ */ signedInQuery(/* @__PURE__ */ hookOf('useGetBalanceQuery'))
/** The free tier of an app for the signed-in user; the app is the provider's `appId` when left out. */
export const useGetFreeBalanceQuery = /* @__PURE__ */ signedInQuery<(typeof echoApi)['useGetFreeBalanceQuery'], FreeBalanceQueryHook>(
  /* @__PURE__ */ hookOf('useGetFreeBalanceQuery'),
  (dispatch) => storeSessionOf(dispatch).session.config.appId,
)
export const useGetSupportedModelsQuery = /* @__PURE__ */ signedInQuery(/* @__PURE__ */ hookOf('useGetSupportedModelsQuery'))
export const useCreatePaymentLinkMutation = /* @__PURE__ */ hookOf('useCreatePaymentLinkMutation')
export const useGetUserQuery = /* @__PURE__ */ signedInQuery(/* @__PURE__ */ hookOf('useGetUserQuery'))
export const useRegisterReferralMutation = /* @__PURE__ */ hookOf('useRegisterReferralMutation')
