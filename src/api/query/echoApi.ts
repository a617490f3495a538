import { buildCreateApi, coreModule, reactHooksModule, type TypedUseQuery } from '@reduxjs/toolkit/query/react'
import { skipToken } from '@reduxjs/toolkit/query'

import { getAppRequest, getSupportedModelsRequest, getUserRequest, listAppsRequest, registerReferralRequest } from '../echoRequests'
import type { AppList, EchoAccount, EchoApp, FreeTierBalance, ReferralRequest, ReferralResponse, SupportedModelsResponse } from '../wireTypes'
import type { echoBaseQuery } from './echoBaseQuery'
import { useEchoDispatch, useEchoSelector, useEchoStore } from './echoReduxContext'
import { echoSessionOf } from './echoSessionPort'
import { API_SETTINGS, sessionEchoApi, sessionEndpoints, type EchoEndpointBuilder } from './sessionEchoApi'

/** The endpoints an app calls through hooks or `echoApi` (the session calls none of them). */
const appEndpoints = (build: EchoEndpointBuilder) => ({
  getApps: build.query<AppList, void>({
    query: listAppsRequest,
    providesTags: ['App'],
  }),
  getApp: build.query<EchoApp, string>({
    query: (id) => () => getAppRequest(id),
    providesTags: (_app, _error, id) => [{ type: 'App', id }],
  }),
  getSupportedModels: build.query<SupportedModelsResponse, void>({
    query: getSupportedModelsRequest,
    providesTags: ['Models'],
  }),
  getUser: build.query<EchoAccount, void>({
    query: getUserRequest,
    providesTags: ['User'],
  }),
  registerReferral: build.mutation<ReferralResponse, ReferralRequest>({
    query: (request) => () => registerReferralRequest(request),
    invalidatesTags: ['User', 'Balance'],
  }),
})

/**
 * The hooks API over the store's `echoApi` slice: the same eight endpoints, with RTK Query's
 * hooks, reading the store of the nearest <EchoProvider>. The store's own API (no hooks) learns
 * the app's endpoints too, since its middleware keeps their cache. Both make the same actions and
 * read the same slice, so a call from either is one call.
 */
function createEchoApi() {
  sessionEchoApi.injectEndpoints({ endpoints: appEndpoints })
  const createApi = buildCreateApi(coreModule(), reactHooksModule({ hooks: { useDispatch: useEchoDispatch, useSelector: useEchoSelector, useStore: useEchoStore } }))
  return createApi({ ...API_SETTINGS, endpoints: (build) => ({ ...sessionEndpoints(build), ...appEndpoints(build) }) })
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
  (dispatch) => echoSessionOf(dispatch).config.appId,
)
export const useGetSupportedModelsQuery = /* @__PURE__ */ signedInQuery(/* @__PURE__ */ hookOf('useGetSupportedModelsQuery'))
export const useCreatePaymentLinkMutation = /* @__PURE__ */ hookOf('useCreatePaymentLinkMutation')
export const useGetUserQuery = /* @__PURE__ */ signedInQuery(/* @__PURE__ */ hookOf('useGetUserQuery'))
export const useRegisterReferralMutation = /* @__PURE__ */ hookOf('useRegisterReferralMutation')
