import { createAnthropic, type AnthropicProvider } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI, type GoogleGenerativeAIProvider } from '@ai-sdk/google'
import { createOpenAI, type OpenAIProvider } from '@ai-sdk/openai'
import { describe, expectTypeOf, test } from 'vitest'

import { useEchoFetch, useEchoModelProvider, type FetchFunction } from 'echo-rtk'

describe('useEchoModelProvider', () => {
  test("takes the AI SDK providers' own factories and gives back their provider types", () => {
    expectTypeOf(useEchoModelProvider(createOpenAI)).toEqualTypeOf<OpenAIProvider>()
    expectTypeOf(useEchoModelProvider(createAnthropic)).toEqualTypeOf<AnthropicProvider>()
    expectTypeOf(useEchoModelProvider(createGoogleGenerativeAI)).toEqualTypeOf<GoogleGenerativeAIProvider>()
  })

  test('useEchoFetch has the shape of fetch', () => {
    expectTypeOf(useEchoFetch).returns.toEqualTypeOf<FetchFunction>()
    expectTypeOf<FetchFunction>().toExtend<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>()
  })
})
