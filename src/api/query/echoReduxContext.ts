import { createContext } from 'react'
import { createDispatchHook, createSelectorHook, createStoreHook, type ReactReduxContextValue } from 'react-redux'

/**
 * echo-rtk's own react-redux context: `<EchoProvider>` puts its store here, never in the app's
 * default react-redux context, so an app's `<Provider store>` and echo-rtk's never shadow each
 * other, whether echo-rtk uses its own store or the app's.
 */
export const EchoReduxContext = createContext<ReactReduxContextValue | null>(null)

/** react-redux's hooks, reading the store of the nearest `<EchoProvider>`. */
export const useEchoDispatch = createDispatchHook(EchoReduxContext)
export const useEchoSelector = createSelectorHook(EchoReduxContext)
export const useEchoStore = createStoreHook(EchoReduxContext)
