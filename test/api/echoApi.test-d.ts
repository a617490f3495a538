import { expectTypeOf, test } from 'vitest'

import { skipToken, useGetBalanceQuery, useGetFreeBalanceQuery, type Balance, type FreeTierBalance } from 'echo-rtk'

test("the query hooks keep RTK Query's types; the free tier's app may be left out", () => {
  expectTypeOf(useGetBalanceQuery).toBeCallableWith(undefined, { skip: true })
  expectTypeOf(useGetBalanceQuery).toBeCallableWith(skipToken)
  expectTypeOf(useGetBalanceQuery(undefined).data).toEqualTypeOf<Balance | undefined>()
  expectTypeOf(useGetFreeBalanceQuery).toBeCallableWith()
  expectTypeOf(useGetFreeBalanceQuery).toBeCallableWith('another-app', { pollingInterval: 60_000 })
  expectTypeOf(useGetFreeBalanceQuery().data).toEqualTypeOf<FreeTierBalance | undefined>()
})
