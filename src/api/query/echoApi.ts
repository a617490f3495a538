import { buildCreateApi, coreModule, reactHooksModule, type reactHooksModuleName } from '@reduxjs/toolkit/query/react'
import {
  skipToken,
  type Api,
  type BaseQueryFn,
  type coreModuleName,
  type MutationDefinition,
  type QueryDefinition,
} from '@reduxjs/toolkit/query'

import { EchoError, type EchoErrorData } from '../../errors'
import {
  createPaymentLinkRequest,
  getAppRequest,
  getBalanceRequest,
  getFreeBalanceRequest,
  getSupportedModelsRequest,
  getUserRequest,
  listAppsRequest,
  registerReferralRequest,
  requestJson,
  type JsonRequest,
} from '../echoRequests'
import type {
  AppList,
  Balance,
  EchoApp,
  EchoUserAccount,
  FreeTierBalance,
  PaymentLinkRequest,
  PaymentLinkResponse,
  ReferralRequest,
  ReferralResponse,
  SupportedModels,
} from '../wireTypes'
import { useEchoDispatch, useEchoSelector, useEchoStore } from './echoReduxContext'
import { sessionPortOf } from './sessionPort'

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
      data: await requestJson(session.sendAuthorized, session.apiBase, { ...request, signal: api.signal }),
    }
  } catch (error) {
    return { error: EchoError.from(error).toJSON() }
  }
}

/**
 * The cache tags of `echoApi`.
 *
 * @inline
 */
export type EchoApiTag = 'Balance' | 'App' | 'User' | 'Models'
type EchoQuery<Arg, Result> = QueryDefinition<Arg, typeof echoBaseQuery, EchoApiTag, Result, 'echoApi'>
type EchoMutation<Arg, Result> = MutationDefinition<Arg, typeof echoBaseQuery, EchoApiTag, Result, 'echoApi'>

/**
 * Echo's eight calls as RTK Query endpoint definitions.
 *
 * @inline
 */
export type EchoApiEndpoints = {
  getApps: EchoQuery<void, AppList>
  getApp: EchoQuery<string, EchoApp>
  getBalance: EchoQuery<void, Balance>
  /** The app id may be left out: the hook fills in the provider's `appId`. */
  getFreeBalance: EchoQuery<string | void, FreeTierBalance>
  getSupportedModels: EchoQuery<void, SupportedModels>
  createPaymentLink: EchoMutation<PaymentLinkRequest, PaymentLinkResponse>
  getUser: EchoQuery<void, EchoUserAccount>
  registerReferral: EchoMutation<ReferralRequest, ReferralResponse>
}

/**
 * The type of `echoApi`, written with Redux Toolkit's public generics only, so that an app's
 * TypeScript reads it against the Redux Toolkit the app installed (the type RTK Query infers
 * spells out the internals of the version echo-rtk was built with).
 */
export type EchoApi = Api<
  typeof echoBaseQuery,
  EchoApiEndpoints,
  'echoApi',
  EchoApiTag,
  typeof coreModuleName | typeof reactHooksModuleName
>

/**
 * Echo's API as one RTK Query API, mounted at `echoApi`: the eight calls as endpoints, their
 * hooks reading the store of the nearest `<EchoProvider>`. Its `reducer` and `middleware` are the
 * ones `echoReducers` and `echoMiddleware` mount, and the session, the thunks and the balance use
 * this same object. A payment link or a referral marks the balance stale, and so does
 * `refreshBalance()`.
 *
 * @example
 * const { data: balance } = useGetBalanceQuery()
 */
export const echoApi: EchoApi = /* @__PURE__ */ buildCreateApi(
  coreModule(),
  reactHooksModule({ hooks: { useDispatch: useEchoDispatch, useSelector: useEchoSelector, useStore: useEchoStore } }),
)({
  reducerPath: 'echoApi',
  baseQuery: echoBaseQuery,
  tagTypes: ['Balance', 'App', 'User', 'Models'],
  endpoints: (build) => ({
    getApps: build.query<AppList, void>({
      query: listAppsRequest,
      providesTags: ['App'],
    }),
    getApp: build.query<EchoApp, string>({
      query: (id) => () => getAppRequest(id),
      providesTags: (_app, _error, id) => [{ type: 'App', id }],
    }),
    getBalance: build.query<Balance, void>({
      query: getBalanceRequest,
      providesTags: ['Balance'],
    }),
    // `void`: the hook fills in the provider's appId when it is left out.
    getFreeBalance: build.query<FreeTierBalance, string | void>({
      query: (echoAppId) => () => getFreeBalanceRequest(echoAppId as string),
      providesTags: ['Balance'],
    }),
    getSupportedModels: build.query<SupportedModels, void>({
      query: getSupportedModelsRequest,
      providesTags: ['Models'],
    }),
    createPaymentLink: build.mutation<PaymentLinkResponse, PaymentLinkRequest>({
      query: (request) => () => createPaymentLinkRequest(request),
      invalidatesTags: ['Balance'],
    }),
    getUser: build.query<EchoUserAccount, void>({
      query: getUserRequest,
      providesTags: ['User'],
    }),
    registerReferral: build.mutation<ReferralResponse, ReferralRequest>({
      query: (request) => () => registerReferralRequest(request),
      invalidatesTags: ['User', 'Balance'],
    }),
  }),
})

type RawQueryHook = (arg: unknown, options?: unknown) => unknown

/** Whether someone is signed in, read from the store's `echo` slice (the store layer defines it). */
const isSignedIn = (state: unknown) =>
  (state as { echo?: { auth?: { status?: unknown } } }).echo?.auth?.status === 'authenticated'

/**
 * A query hook that needs a user: while nobody is signed in it sends nothing and shows no error,
 * as if skipped, and it runs once someone signs in (and is dropped again at sign-out, so one
 * user's data never shows for the next). `skip` and `skipToken` work as ever. `defaultArg` fills
 * an argument left out.
 */
function signedInQuery<Hook>(hook: Hook, defaultArg?: (dispatch: ReturnType<typeof useEchoDispatch>) => unknown): Hook {
  return ((arg: unknown, options?: unknown) => {
    const signedIn = useEchoSelector(isSignedIn)
    const dispatch = useEchoDispatch()
    const given = arg === undefined && defaultArg !== undefined && signedIn ? defaultArg(dispatch) : arg
    const result = (hook as RawQueryHook)(signedIn ? given : skipToken, options)
    // A skipped hook keeps showing its last data; after a sign-out that was another user's.
    return signedIn || typeof result !== 'object' || result === null
      ? result
      : { ...result, data: undefined, currentData: undefined }
  }) as Hook
}

// Each typed as the API's own hook (an indexed type, read against the app's Redux Toolkit).
export const useGetAppsQuery: EchoApi['useGetAppsQuery'] = /* @__PURE__ */ signedInQuery(echoApi.useGetAppsQuery)
export const useGetAppQuery: EchoApi['useGetAppQuery'] = /* @__PURE__ */ signedInQuery(echoApi.useGetAppQuery)
export const useGetBalanceQuery: EchoApi['useGetBalanceQuery'] = /* @__PURE__ */ signedInQuery(
  echoApi.useGetBalanceQuery,
)
/** The free tier of an app for the signed-in user; the app is the provider's `appId` when left out. */
export const useGetFreeBalanceQuery: EchoApi['useGetFreeBalanceQuery'] = /* @__PURE__ */ signedInQuery(
  echoApi.useGetFreeBalanceQuery,
  (dispatch) => sessionPortOf(dispatch).config.appId,
)
export const useGetSupportedModelsQuery: EchoApi['useGetSupportedModelsQuery'] = /* @__PURE__ */ signedInQuery(
  echoApi.useGetSupportedModelsQuery,
)
export const useCreatePaymentLinkMutation: EchoApi['useCreatePaymentLinkMutation'] =
  echoApi.useCreatePaymentLinkMutation
export const useGetUserQuery: EchoApi['useGetUserQuery'] = /* @__PURE__ */ signedInQuery(echoApi.useGetUserQuery)
export const useRegisterReferralMutation: EchoApi['useRegisterReferralMutation'] = echoApi.useRegisterReferralMutation
