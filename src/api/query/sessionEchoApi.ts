import { buildCreateApi, coreModule, type EndpointBuilder } from '@reduxjs/toolkit/query'

import { createPaymentLinkRequest, getAppRequest, getBalanceRequest, getFreeBalanceRequest, getSupportedModelsRequest, getUserRequest, listAppsRequest, registerReferralRequest } from '../echoRequests'
import type { AppList, Balance, EchoUserAccount, EchoApp, FreeTierBalance, PaymentLinkRequest, PaymentLinkResponse, ReferralRequest, ReferralResponse, SupportedModelsResponse } from '../wireTypes'
import { echoBaseQuery } from './echoBaseQuery'

/** What both API objects over the `echoApi` slice are made of. */
export const API_SETTINGS = { reducerPath: 'echoApi', baseQuery: echoBaseQuery, tagTypes: ['Balance', 'App', 'User', 'Models'] } as const

type EchoEndpointBuilder = EndpointBuilder<typeof echoBaseQuery, (typeof API_SETTINGS.tagTypes)[number], typeof API_SETTINGS.reducerPath>

/** Echo's eight API calls as RTK Query endpoints: the session calls the balance and the payment link, an app any of them. */
export const echoApiEndpoints = (build: EchoEndpointBuilder) => ({
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
  getFreeBalance: build.query<FreeTierBalance, string>({
    query: (echoAppId) => () => getFreeBalanceRequest(echoAppId),
    providesTags: ['Balance'],
  }),
  getSupportedModels: build.query<SupportedModelsResponse, void>({
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
})

/**
 * The API the store runs on: its reducer and middleware are the ones `echoReducers` and
 * `echoMiddleware` mount, and `echoApi` hands out as its own. It has no React hooks (RTK Query's
 * hooks module is about 3 kB gzip, which an app that uses no hook should not carry): `echoApi` adds
 * them over the same endpoints and the same slice (docs/session.md, "One API, two faces").
 * @internal
 */
export const sessionEchoApi = buildCreateApi(coreModule())({ ...API_SETTINGS, endpoints: echoApiEndpoints })
