import { expectTypeOf, test } from 'vitest'

import {
  EchoClient,
  EchoError,
  type Balance,
  type EchoErrorCode,
  type EchoErrorData,
  type TokenProvider,
} from '../src/client'

test('every call answers its wire shape, never any', () => {
  const client = new EchoClient({ apiKey: 'k' })
  expectTypeOf(client.balance.get()).resolves.toEqualTypeOf<Balance>()
  expectTypeOf(client.payments.createPaymentLink({ amount: 5 }))
    .resolves.toHaveProperty('paymentLink')
    .toHaveProperty('url')
    .toEqualTypeOf<string>()
  expectTypeOf(client.apps.list())
    .resolves.toHaveProperty('apps')
    .items.toHaveProperty('homepageUrl')
    .toEqualTypeOf<string | null>()
})

test('error codes are a closed set', () => {
  expectTypeOf<EchoError['code']>().toEqualTypeOf<EchoErrorCode>()
  expectTypeOf<'HTTP_402'>().toExtend<EchoErrorCode>()
  expectTypeOf<'OOPS'>().not.toExtend<EchoErrorCode>()
  expectTypeOf(new EchoError({ code: 'NETWORK_ERROR', message: 'x' }).toJSON()).toEqualTypeOf<EchoErrorData>()
})

test('a token provider needs both functions', () => {
  expectTypeOf<{ getAccessToken: () => Promise<string | null> }>().not.toExtend<TokenProvider>()
})
