import { useMemo } from 'react'

import type { EchoRouter } from '../api/router/EchoRouter'
import { getEchoRouter } from '../store/thunks'
import { useEchoContext } from './useEcho'

/**
 * The model router bound to the provider's session: calls carry the signed-in user's token and
 * share the session's single refresh. A 402 sets `isInsufficientFunds` (so `<EchoTopUp>` offers a
 * top-up), and the balance is refetched once a call, or a burst of calls, has ended.
 *
 * @example
 * const router = useEchoRouter()
 * const stream = await router.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true })
 */
export function useEchoRouter(): EchoRouter {
  const { store } = useEchoContext()
  return useMemo(() => store.dispatch(getEchoRouter()), [store])
}
