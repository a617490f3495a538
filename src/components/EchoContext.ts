import { createContext, useContext } from 'react'

import { OUTSIDE_PROVIDER } from '../api/query/echoReduxContext'
import type { ResolvedEchoConfig } from '../config'
import type { EchoStore } from '../store/createEchoStore'

/** What `<EchoProvider>` gives the components under it. */
export interface EchoContextValue {
  store: EchoStore
  config: ResolvedEchoConfig
}

export const EchoContext = createContext<EchoContextValue | null>(null)

/** The nearest provider's store and config; outside one, throws `useEcho must be used within an EchoProvider`. */
export function useEchoContext(): EchoContextValue {
  const value = useContext(EchoContext)
  if (value === null) throw new Error(OUTSIDE_PROVIDER)
  return value
}
