import { createContext, useContext } from 'react'
import { createDispatchHook, createSelectorHook, createStoreHook, type ReactReduxContextValue } from 'react-redux'

/**
 * echo-rtk's own react-redux context: `<EchoProvider>` puts its store here, never in the app's
 * default react-redux context, so an app's `<Provider store>` and echo-rtk's never shadow each
 * other, whether echo-rtk uses its own store or the app's.
 */
export const EchoReduxContext = createContext<ReactReduxContextValue | null>(null)

/** What every echo-rtk hook and component says outside an `<EchoProvider>`. */
export const OUTSIDE_PROVIDER = 'useEcho must be used within an EchoProvider'

/**
 * Throws {@link OUTSIDE_PROVIDER} outside an `<EchoProvider>`. react-redux's own message would ask
 * for a `<Provider>`, which an app inside its own `<Provider store>` already has.
 */
function useInsideProvider(): void {
  if (useContext(EchoReduxContext) === null) throw new Error(OUTSIDE_PROVIDER)
}

/** `hook`, first checking that it is called inside an `<EchoProvider>`; `withTypes` as react-redux's hooks have. */
function insideProvider<Hook extends (...args: never[]) => unknown>(hook: Hook): Hook {
  const useChecked = (...args: Parameters<Hook>) => {
    useInsideProvider()
    return hook(...args)
  }
  return Object.assign(useChecked, { withTypes: () => useChecked }) as unknown as Hook
}

/** react-redux's hooks, reading the store of the nearest `<EchoProvider>`. */
export const useEchoDispatch = /* @__PURE__ */ insideProvider(createDispatchHook(EchoReduxContext))
export const useEchoSelector = /* @__PURE__ */ insideProvider(createSelectorHook(EchoReduxContext))
export const useEchoStore = /* @__PURE__ */ insideProvider(createStoreHook(EchoReduxContext))
