import { DEFAULT_ROUTER_URL, httpUrl } from '../../config'
import { createAuthorizedSend } from '../authorizedFetch'
import { ceilingOption, fetchUnderCeiling } from '../ceilingGate'
import { requireTokenProvider } from '../tokenProvider'
import type { EchoRouter, EchoRouterOptions } from './EchoRouter'
import { routerOver } from './routerOver'

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
    maxCallCost,
    ...coordination
  } = options ?? ({} as Partial<EchoRouterOptions>)
  const routerUrl = httpUrl('baseRouterUrl', baseRouterUrl)
  const tokens = requireTokenProvider(tokenProvider, 'createEchoRouter')
  const ceiling = ceilingOption("createEchoRouter's maxCallCost", maxCallCost)
  return routerOver(
    createAuthorizedSend({ tokenProvider: tokens, ...coordination, fetch: fetchUnderCeiling(fetch, ceiling) }),
    routerUrl,
  )
}
