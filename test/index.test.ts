import { describe, expect, it } from 'vitest'

import * as echoRtk from 'echo-rtk'
import * as client from 'echo-rtk/client'

describe('echo-rtk', () => {
  it('exports exactly its public names (a change here is a change of the public API)', () => {
    expect(Object.keys(echoRtk).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_API_URL",
        "DEFAULT_PAYMENT_DESCRIPTION",
        "DEFAULT_ROUTER_URL",
        "DEFAULT_SCOPE",
        "EchoAccount",
        "EchoBalance",
        "EchoError",
        "EchoProvider",
        "EchoSignIn",
        "EchoSignOut",
        "EchoSpend",
        "EchoTopUp",
        "Logo",
        "SignedIn",
        "SignedOut",
        "authSlice",
        "balanceSlice",
        "createEchoMiddleware",
        "createEchoStore",
        "createPaymentLink",
        "echoApi",
        "echoDevMoments",
        "echoDevToolsOptions",
        "echoMiddleware",
        "echoReducer",
        "echoReducers",
        "formatUsd",
        "getEchoFetch",
        "getEchoRouter",
        "getToken",
        "insufficientFundsDetected",
        "isAbortError",
        "isInsufficientFunds",
        "refreshBalance",
        "resolveConfig",
        "selectAuthStatus",
        "selectBalance",
        "selectCredit",
        "selectDailyLimit",
        "selectEchoError",
        "selectEchoUser",
        "selectFreeTierBalance",
        "selectIsAuthenticated",
        "selectIsBalanceLoading",
        "selectIsInsufficientFunds",
        "selectIsLowBalance",
        "selectIsReconnecting",
        "selectIsSigningIn",
        "selectIsSpendLimitReached",
        "setDailyLimit",
        "signIn",
        "signOut",
        "skipToken",
        "startEchoSession",
        "stopEchoSession",
        "useCreatePaymentLinkMutation",
        "useEcho",
        "useEchoFetch",
        "useEchoModelProvider",
        "useEchoRouter",
        "useEchoSpend",
        "useGetAppQuery",
        "useGetAppsQuery",
        "useGetBalanceQuery",
        "useGetFreeBalanceQuery",
        "useGetSupportedModelsQuery",
        "useGetUserQuery",
        "useRegisterReferralMutation",
        "userMessageOf",
      ]
    `)
  })

  it('exports everything echo-rtk/client does, as the same values, but the clients made without a store', () => {
    // EchoClient, createEchoFetch and createEchoRouter come from echo-rtk/client only: re-exported here, a bundler
    // splitting the app (esbuild) would put their code, and the refresh's, in every app's first load.
    const withoutStore = ['EchoClient', 'createEchoFetch', 'createEchoRouter']
    for (const [name, value] of Object.entries(client))
      if (!withoutStore.includes(name)) expect(echoRtk[name as keyof typeof echoRtk], name).toBe(value)
    for (const name of withoutStore) expect(echoRtk, name).not.toHaveProperty(name)
  })
})
