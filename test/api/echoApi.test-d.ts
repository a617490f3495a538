import { expectTypeOf, test } from 'vitest'

import { skipToken, useGetBalanceQuery, useGetFreeBalanceQuery, type Balance, type FreeTierBalance } from 'echo-rtk'

test("the query hooks keep RTK Query's types; the free tier's app may be left out", () => {
  expectTypeOf(useGetBalanceQuery).toBeCallableWith(undefined, { skip: true })
  expectTypeOf(useGetBalanceQuery).toBeCallableWith(skipToken)
  expectTypeOf(useGetBalanceQuery(undefined).data).toEqualTypeOf<Balance | undefined>()
  expectTypeOf(useGetFreeBalanceQuery).toBeCallableWith()
  expectTypeOf(useGetFreeBalanceQuery).toBeCallableWith('2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f53', {
    pollingInterval: 60_000,
  })
  expectTypeOf(useGetFreeBalanceQuery().data).toEqualTypeOf<FreeTierBalance | undefined>()
})
