import { expectTypeOf, test } from 'vitest'

import { useEcho, type Balance, type EchoUser, type ResolvedEchoConfig } from 'echo-rtk'

test('status is a closed union, never any', () => {
  expectTypeOf(useEcho)
    .returns.toHaveProperty('status')
    .toEqualTypeOf<'loading' | 'unauthenticated' | 'authenticated'>()
})

test('what useEcho gives is typed to the wire', () => {
  expectTypeOf(useEcho).returns.toHaveProperty('user').toEqualTypeOf<EchoUser | null>()
  expectTypeOf(useEcho).returns.toHaveProperty('balance').toEqualTypeOf<Balance | null>()
  expectTypeOf(useEcho).returns.toHaveProperty('error').toEqualTypeOf<string | null>()
  expectTypeOf(useEcho).returns.toHaveProperty('createPaymentLink').returns.resolves.toEqualTypeOf<string>()
  expectTypeOf(useEcho).returns.toHaveProperty('config').toEqualTypeOf<ResolvedEchoConfig>()
})
