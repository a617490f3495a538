import type { SerializedError } from '@reduxjs/toolkit'
import { expectTypeOf, test } from 'vitest'

import { createEchoStore, refreshBalance, selectAuthStatus, selectBalance, selectEchoUser, useGetBalanceQuery, type AuthState, type Balance, type EchoErrorData, type EchoUser } from 'echo-rtk'

test('the auth status is a closed union, never any', () => {
  expectTypeOf(selectAuthStatus).returns.toEqualTypeOf<'loading' | 'unauthenticated' | 'authenticated'>()
  expectTypeOf<AuthState['error']>().toEqualTypeOf<EchoErrorData | null>()
  expectTypeOf(selectEchoUser).returns.toEqualTypeOf<EchoUser | null>()
})

test('the balance is the wire shape', () => {
  expectTypeOf(selectBalance).returns.toEqualTypeOf<Balance | null>()
  // Type tests are compiled, never run: calling the hook here only asks for its types.
  const query = useGetBalanceQuery()
  expectTypeOf(query.data).toEqualTypeOf<Balance | undefined>()
  expectTypeOf(query.error).toEqualTypeOf<EchoErrorData | SerializedError | undefined>()
})

test("the store's dispatch takes echo-rtk's thunks and returns their promise", () => {
  const store = createEchoStore({ config: { appId: 'app' }, startSession: false })
  expectTypeOf(store.dispatch(refreshBalance())).toEqualTypeOf<Promise<Balance>>()
  expectTypeOf(store.getState().echo.auth.status).toEqualTypeOf<AuthState['status']>()
})
