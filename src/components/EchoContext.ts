import { createContext, useContext } from 'react'

import type { ResolvedEchoConfig } from '../config'
import type { EchoStore } from '../store/createEchoStore'

/** What `<EchoProvider>` gives the components under it. */
export interface EchoContextValue {
  store: EchoStore
  config: ResolvedEchoConfig
}

export const EchoContext = createContext<EchoContextValue | null>(null)

/** The nearest provider's store and config; throws the SPEC §5 message outside one. */
export function useEchoContext(): EchoContextValue {
  const value = useContext(EchoContext)
  if (value === null) throw new Error('useEcho must be used within an EchoProvider')
  return value
}
