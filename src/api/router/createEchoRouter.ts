import { DEFAULT_ROUTER_URL, httpUrl } from '../../config'
import { createAuthorizedSend, type AuthorizedSend } from '../authorizedFetch'
import { requireTokenProvider } from '../tokenProvider'
import type { AnthropicMessage, AnthropicStreamEvent, MessageRequest } from './anthropicTypes'
import type { EchoRouter, EchoRouterOptions } from './EchoRouter'
import { googleRoutes } from './googleRoutes'
import { openAiRoutes } from './openAiRoutes'
import { ANTHROPIC_VERSION, DEFAULT_ANTHROPIC_MAX_TOKENS } from './routerDefaults'
import { optionsOf, requireBody } from './routerInput'
import { createRouterTransport } from './routerTransport'
import { streamingCreate } from './streamingCreate'

/**
 * The model router client: OpenAI-, Anthropic- and Google-style calls billed to the signed-in user,
 * through the same authorized fetch as everything else (bearer token, one shared refresh on a 401,
 * one marked retry; no token, no request).
 *
 * @example
 * const router = createEchoRouter({ tokenProvider })
 * const messages = [{ role: 'user' as const, content: 'Hi' }]
 * const stream = await router.chat.completions.create({ model: 'gpt-4o', messages, stream: true })
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '')
 */
export function createEchoRouter(options: EchoRouterOptions): EchoRouter {
  const {
    baseRouterUrl = DEFAULT_ROUTER_URL,
    tokenProvider,
    fetch,
    ...coordination
  } = options ?? ({} as Partial<EchoRouterOptions>)
  const routerUrl = httpUrl('baseRouterUrl', baseRouterUrl)
  const tokens = requireTokenProvider(tokenProvider, 'createEchoRouter')
  return routerOver(
    createAuthorizedSend({ tokenProvider: tokens, ...coordination, ...(fetch === undefined ? {} : { fetch }) }),
    routerUrl,
  )
}

/** The router's methods over an authorized send (`echo-rtk/server` gives one that never refreshes). @internal */
export function routerOver(sendAuthorized: AuthorizedSend, routerUrl: string): EchoRouter {
  const transport = createRouterTransport(sendAuthorized, routerUrl)
  return {
    ...openAiRoutes(transport),
    messages: {
      create: streamingCreate<MessageRequest, AnthropicMessage, AnthropicStreamEvent>(transport, (body, options) => {
        const checked = requireBody(body, 'creating message')
        return {
          path: '/messages',
          action: 'creating message',
          model: checked.model,
          body: { ...checked, max_tokens: checked.max_tokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS },
          headers: { 'anthropic-version': ANTHROPIC_VERSION },
          signal: optionsOf(options).signal,
        }
      }),
    },
    google: googleRoutes(transport),
  }
}
