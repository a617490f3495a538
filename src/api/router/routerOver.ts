import type { AuthorizedSend } from '../authorizedFetch'
import type { AnthropicMessage, AnthropicStreamEvent, MessageRequest } from './anthropicTypes'
import type { EchoRouter } from './EchoRouter'
import { googleRoutes } from './googleRoutes'
import { openAiRoutes } from './openAiRoutes'
import { ANTHROPIC_VERSION, DEFAULT_ANTHROPIC_MAX_TOKENS } from './routerDefaults'
import { optionsOf, requireBody } from './routerInput'
import { createRouterTransport } from './routerTransport'
import { streamingCreate } from './streamingCreate'

// The router's methods over a send given to it, apart from createEchoRouter's own authorized send: the
// session's billed router and echo-rtk/server's bring their own, and need none of the refresh's code.

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
          ...optionsOf(options),
        }
      }),
    },
    google: googleRoutes(transport),
  }
}
