import { buildCreateApi, coreModule, reactHooksModule } from '@reduxjs/toolkit/query/react'

import { echoBaseQuery } from './echoBaseQuery'
import { useEchoDispatch, useEchoSelector, useEchoStore } from './echoReduxContext'
import { echoRequests, toAppList } from './echoRequests'
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
} from './wireTypes'

// The generated hooks read the store of the nearest <EchoProvider> (see echoReduxContext).
const createApi = buildCreateApi(
  coreModule(),
  reactHooksModule({ hooks: { useDispatch: useEchoDispatch, useSelector: useEchoSelector, useStore: useEchoStore } }),
)

/**
 * Echo's API as RTK Query endpoints, mounted at `echoApi`. Its hooks are exported by name
 * (`useGetBalanceQuery`, ...) and read the store of the nearest `<EchoProvider>`. A payment link or a referral marks the balance stale, and so does
 * `refreshBalance()`.
 *
 * @example
 * const { data: balance } = useGetBalanceQuery()
 */
export const echoApi = createApi({
  reducerPath: 'echoApi',
  baseQuery: echoBaseQuery,
  tagTypes: ['Balance', 'App', 'User', 'Models'],
  endpoints: (build) => ({
    getApps: build.query<AppList, void>({
      query: echoRequests.listApps,
      transformResponse: toAppList,
      providesTags: ['App'],
    }),
    getApp: build.query<EchoApp, string>({
      query: (id) => () => echoRequests.getApp(id),
      providesTags: (_app, _error, id) => [{ type: 'App', id }],
    }),
    getBalance: build.query<Balance, void>({
      query: echoRequests.getBalance,
      providesTags: ['Balance'],
    }),
    getFreeBalance: build.query<FreeTierBalance, string>({
      query: (echoAppId) => () => echoRequests.getFreeBalance(echoAppId),
      providesTags: ['Balance'],
    }),
    getSupportedModels: build.query<SupportedModelsResponse, void>({
      query: echoRequests.getSupportedModels,
      providesTags: ['Models'],
    }),
    createPaymentLink: build.mutation<PaymentLinkResponse, PaymentLinkRequest>({
      query: (request) => () => echoRequests.createPaymentLink(request),
      invalidatesTags: ['Balance'],
    }),
    getUser: build.query<EchoAccount, void>({
      query: echoRequests.getUser,
      providesTags: ['User'],
    }),
    registerReferral: build.mutation<ReferralResponse, ReferralRequest>({
      query: (request) => () => echoRequests.registerReferral(request),
      invalidatesTags: ['User', 'Balance'],
    }),
  }),
})

export const {
  useGetAppsQuery,
  useGetAppQuery,
  useGetBalanceQuery,
  useGetFreeBalanceQuery,
  useGetSupportedModelsQuery,
  useCreatePaymentLinkMutation,
  useGetUserQuery,
  useRegisterReferralMutation,
} = echoApi
