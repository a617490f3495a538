import { buildCreateApi, coreModule, reactHooksModule, skipToken, type TypedUseQuery } from '@reduxjs/toolkit/query/react'

import { echoBaseQuery } from './echoBaseQuery'
import { echoSessionOf } from './echoSessionPort'
import { useEchoDispatch, useEchoSelector, useEchoStore } from './echoReduxContext'
import {
  createPaymentLinkRequest,
  getAppRequest,
  getBalanceRequest,
  getFreeBalanceRequest,
  getSupportedModelsRequest,
  getUserRequest,
  listAppsRequest,
  registerReferralRequest,
  toAppList,
} from '../echoRequests'
import type {
  AppList,
  Balance,
  EchoAccount,
  EchoApp,
  FreeTierBalance,
  PaymentLinkRequest,
  PaymentLinkResponse,
  ReferralRequest,
  ReferralResponse,
  SupportedModelsResponse,
} from '../wireTypes'

// The generated hooks read the store of the nearest <EchoProvider> (see echoReduxContext).
const createApi = buildCreateApi(
  coreModule(),
  reactHooksModule({ hooks: { useDispatch: useEchoDispatch, useSelector: useEchoSelector, useStore: useEchoStore } }),
)

/**
 * `echoApi` with only the endpoints the session itself calls (the balance and the payment link).
 * The store, the middleware and the thunks use this one, so an app that never calls the other
 * endpoints does not bundle them; `echoApi` below adds the rest to this same object.
 * @internal
 */
export const sessionEchoApi = createApi({
  reducerPath: 'echoApi',
  baseQuery: echoBaseQuery,
  tagTypes: ['Balance', 'App', 'User', 'Models'],
  endpoints: (build) => ({
    getBalance: build.query<Balance, void>({
      query: getBalanceRequest,
      providesTags: ['Balance'],
    }),
    getFreeBalance: build.query<FreeTierBalance, string>({
      query: (echoAppId) => () => getFreeBalanceRequest(echoAppId),
      providesTags: ['Balance'],
    }),
    createPaymentLink: build.mutation<PaymentLinkResponse, PaymentLinkRequest>({
      query: (request) => () => createPaymentLinkRequest(request),
      invalidatesTags: ['Balance'],
    }),
  }),
})

/**
 * Echo's API as RTK Query endpoints, mounted at `echoApi`. Its hooks are exported by name
 * (`useGetBalanceQuery`, ...) and read the store of the nearest `<EchoProvider>`. A payment link or a referral marks the balance stale, and so does
 * `refreshBalance()`.
 *
 * The balance and payment-link endpoints are those of `sessionEchoApi`; this adds the others to
 * that same object. The injection is marked pure so that a bundler drops it from an app that imports
 * neither `echoApi` nor one of these hooks (and so never calls these endpoints).
 *
 * @example
 * const { data: balance } = useGetBalanceQuery()
 */
export const echoApi = /* @__PURE__ */ sessionEchoApi.injectEndpoints({
  endpoints: (build) => ({
    getApps: build.query<AppList, void>({
      query: listAppsRequest,
      transformResponse: toAppList,
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
  }),
})

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

export const useGetAppsQuery = /* @__PURE__ */ signedInQuery(hookOf('useGetAppsQuery'))
export const useGetAppQuery = /* @__PURE__ */ signedInQuery(hookOf('useGetAppQuery'))
export const useGetBalanceQuery = /* @__PURE__ */ signedInQuery(hookOf('useGetBalanceQuery'))
/** The free tier of an app for the signed-in user; the app is the provider's `appId` when left out. */
export const useGetFreeBalanceQuery = /* @__PURE__ */ signedInQuery<(typeof echoApi)['useGetFreeBalanceQuery'], FreeBalanceQueryHook>(
  hookOf('useGetFreeBalanceQuery'),
  (dispatch) => echoSessionOf(dispatch).config.appId,
)
export const useGetSupportedModelsQuery = /* @__PURE__ */ signedInQuery(hookOf('useGetSupportedModelsQuery'))
export const useCreatePaymentLinkMutation = /* @__PURE__ */ hookOf('useCreatePaymentLinkMutation')
export const useGetUserQuery = /* @__PURE__ */ signedInQuery(hookOf('useGetUserQuery'))
export const useRegisterReferralMutation = /* @__PURE__ */ hookOf('useRegisterReferralMutation')
