import { useMemo } from 'react'

import type { FetchFunction } from '../api/tokenProvider'
import { getEchoFetch } from '../store/thunks'
import { useEchoContext } from './useEcho'

/**
 * A `fetch` for the model clients an app already uses (the AI SDK's providers, `openai`,
 * `@anthropic-ai/sdk`, `@google/genai`), bound to the provider's session and stable for its life.
 * It sends the signed-in user's token in place of the client's own key, shares the session's one
 * refresh and marked retry, sends nothing when nobody is signed in (`Not authenticated`), marks
 * the user out of credits on a 402 and refetches the balance when an answer ends. It answers as
 * `fetch` does (a 402 is a `Response`), and sends the token only to the config's `apiUrl` and
 * `baseRouterUrl`: a request elsewhere rejects, naming that origin.
 *
 * @example
 * const echoFetch = useEchoFetch()
 * const openai = useMemo(
 *   () => new OpenAI({ apiKey: 'echo', baseURL: routerUrl, fetch: echoFetch, dangerouslyAllowBrowser: true }),
 *   [echoFetch],
 * )
 */
export function useEchoFetch(): FetchFunction {
  const { store } = useEchoContext()
  return useMemo(() => store.dispatch(getEchoFetch()), [store])
}
