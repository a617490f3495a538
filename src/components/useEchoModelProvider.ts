import { useMemo } from 'react'

import type { EchoModelProviderSettings } from '../api/modelProviderSettings'
import { useEchoContext } from './useEcho'
import { useEchoFetch } from './useEchoFetch'

/**
 * An AI SDK provider bound to the signed-in user: `factory({ baseURL, apiKey: 'echo', fetch })`,
 * made once per factory and session. Pass the provider package's own factory; echo-rtk imports
 * none of them.
 *
 * @example
 * import { createOpenAI } from '@ai-sdk/openai'
 * const openai = useEchoModelProvider(createOpenAI)
 * const result = streamText({ model: openai('gpt-4o-mini'), prompt: 'Hello' })
 */
export function useEchoModelProvider<Provider>(factory: (settings: EchoModelProviderSettings) => Provider): Provider {
  const { config } = useEchoContext()
  const fetch = useEchoFetch()
  return useMemo(
    () => factory({ baseURL: config.baseRouterUrl, apiKey: 'echo', fetch }),
    [factory, config.baseRouterUrl, fetch],
  )
}
