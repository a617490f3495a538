import { buildCreateApi, coreModule, type EndpointBuilder } from '@reduxjs/toolkit/query'

import { createPaymentLinkRequest, getBalanceRequest, getFreeBalanceRequest } from '../echoRequests'
import type { Balance, FreeTierBalance, PaymentLinkRequest, PaymentLinkResponse } from '../wireTypes'
import { echoBaseQuery } from './echoBaseQuery'

/** What both API objects over the `echoApi` slice are made of. */
export const API_SETTINGS = { reducerPath: 'echoApi', baseQuery: echoBaseQuery, tagTypes: ['Balance', 'App', 'User', 'Models'] } as const

/** The endpoint builder of the `echoApi` slice. */
export type EchoEndpointBuilder = EndpointBuilder<typeof echoBaseQuery, (typeof API_SETTINGS.tagTypes)[number], typeof API_SETTINGS.reducerPath>

/** The endpoints the session itself calls: the balance and the payment link. */
export const sessionEndpoints = (build: EchoEndpointBuilder) => ({
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
})

/**
 * The API the store runs on: its reducer and middleware are the ones `echoReducers` and
 * `echoMiddleware` mount. It has no React hooks (RTK Query's hooks module weighs more than all of
 * echo-rtk's own code): `echoApi` adds them, over this same slice, for apps that use them.
 * @internal
 */
export const sessionEchoApi = buildCreateApi(coreModule())({ ...API_SETTINGS, endpoints: sessionEndpoints })
