// @vitest-environment jsdom
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'

import * as echoRtk from 'echo-rtk'
import { echoApi } from 'echo-rtk'
import { echoStoresPerTest } from '../support/echoStores'
import { server } from '../support/server'
import { ECHO, serveEcho } from '../support/testEcho'

const { newStore, signInThroughEcho } = echoStoresPerTest()

// The balance and payment-link endpoints are defined with the store (sessionEchoApi) and the
// others injected onto the same api object (echoApi.ts), so that an app which never calls them
// does not bundle them. Whoever imports echoApi or a hook must still see all eight.
describe('echoApi', () => {
  it("has Echo's eight endpoints, whichever module defines them", () => {
    expect(Object.keys(echoApi.endpoints).sort()).toEqual([
      'createPaymentLink',
      'getApp',
      'getApps',
      'getBalance',
      'getFreeBalance',
      'getSupportedModels',
      'getUser',
      'registerReferral',
    ])
  })

  it('exports a hook for each endpoint: the generated mutations, and queries that wait for a user', () => {
    for (const name of ['useCreatePaymentLinkMutation', 'useRegisterReferralMutation'] as const)
      expect(echoRtk[name]).toBe(echoApi[name])
    // The query hooks wrap the generated ones (test/components/queryHooks.test.tsx says how they behave).
    for (const name of [
      'useGetAppsQuery',
      'useGetAppQuery',
      'useGetBalanceQuery',
      'useGetFreeBalanceQuery',
      'useGetSupportedModelsQuery',
      'useGetUserQuery',
    ] as const) {
      expect(typeof echoRtk[name]).toBe('function')
      expect(echoRtk[name]).not.toBe(echoApi[name])
    }
  })

  it('runs an injected endpoint in the store echoMiddleware mounts', async () => {
    const store = newStore()
    const result = await store.dispatch(echoApi.endpoints.getApp.initiate(''))
    expect(result.error?.message).toBe('apps.get needs id as a non-empty string (got "")')
  })

  it('getApps reads the app list as { apps } from a page of { items }, and an answer with neither as an error', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    const app = { id: 'a1', name: 'Demo' }
    server.use(http.get(`${ECHO}/api/v1/apps`, () => HttpResponse.json({ items: [app], page: 0 }), { once: true }))
    expect((await store.dispatch(echoApi.endpoints.getApps.initiate(undefined, { forceRefetch: true }))).data).toEqual({
      apps: [app],
    })
    server.use(http.get(`${ECHO}/api/v1/apps`, () => HttpResponse.json({ page: 0 })))
    const failed = await store.dispatch(echoApi.endpoints.getApps.initiate(undefined, { forceRefetch: true }))
    expect(failed.error?.message).toBe('Echo answered without a list of apps (apps or items) while listing apps')
  })
})
