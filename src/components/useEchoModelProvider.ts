import { useMemo } from 'react'

import type { FetchFunction } from '../api/tokenProvider'
import { useEchoContext } from './EchoContext'
import { useEchoFetch } from './useEchoFetch'

/** What `useEchoModelProvider` hands its factory: the settings every AI SDK provider takes. */
export interface EchoModelProviderSettings {
  /** The config's `baseRouterUrl`: every provider's paths are served at the router's root. */
  baseURL: string
  /** A placeholder the provider requires; the user's token replaces it on every request. */
  apiKey: string
  /** The session's {@link useEchoFetch}. */
  fetch: FetchFunction
}

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
  return useMemo(() => factory({ baseURL: config.baseRouterUrl, apiKey: 'echo', fetch }), [factory, config.baseRouterUrl, fetch])
}
