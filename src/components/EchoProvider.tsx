import { useContext, useEffect, useLayoutEffect, useMemo, useState, type ReactElement, type ReactNode } from 'react'
import { Provider } from 'react-redux'
import type { Store, UnknownAction } from '@reduxjs/toolkit'

import { EchoReduxContext } from '../api/query/echoReduxContext'
import { configChangedMessage, nestedProviderMessage } from '../api/query/setupMessages'
import { configKey, resolveConfig, type EchoConfig, type ResolvedEchoConfig } from '../config'
import { createEchoStore, type EchoStore } from '../store/createEchoStore'
import type { EchoRootState } from '../store/echoReducer'
import { assertEchoStore, startEchoSession, stopEchoSession } from '../store/middleware/echoMiddleware'
import type { PageSession } from '../auth/pageSession'
import { runtimeOf } from '../store/EchoRuntime'
import { EchoAnnouncer } from './EchoAnnouncer'
import type { EchoContextValue } from './useEcho'

/** Props of {@link EchoProvider}. */
export interface EchoProviderProps {
  /** Your app's Echo config; `appId` is required. Fixed for the provider's life: give it a new `key` to change app. */
  config: EchoConfig
  /**
   * Your own Redux store, set up with `echoReducers` and `echoMiddleware`. Without it the provider
   * creates one with `createEchoStore`.
   */
  store?: Store<EchoRootState, UnknownAction>
  children?: ReactNode
}

/**
 * Gives the components under it an Echo session: sign-in, balance, top-up and model calls. Renders
 * nothing until it has mounted in a browser (so nothing on a server); then its children, and after
 * them one visually hidden live region that says echo-rtk's status messages once each.
 *
 * @example
 * <EchoProvider config={{ appId: 'your-app-id' }}>
 *   <EchoSignIn />
 *   <EchoBalance />
 * </EchoProvider>
 */
export function EchoProvider({ config, store: hostStore, children }: EchoProviderProps): ReactElement | null {
  const outer = useOuterProvider()
  // Checked at the first render in a browser, so a bad config fails at once with the field it names.
  const [resolved] = useState<ResolvedEchoConfig | null>(() =>
    typeof window === 'undefined' ? null : resolveConfig(config),
  )
  // Inside another provider for the same app, this one is that provider: one session per app and page.
  const [joinsOuter] = useState(
    () => outer !== null && resolved !== null && joinsOuterProvider(outer, resolved, hostStore),
  )
  // Created once per provider and started only after mount, so StrictMode's double render builds no second session.
  const [ownStore] = useState(() =>
    hostStore === undefined && !joinsOuter ? createEchoStore({ config, startSession: false }) : null,
  )
  const store = joinsOuter ? outer!.store : ((hostStore as EchoStore | undefined) ?? ownStore!)
  const [firstConfig] = useState(() => configKey(config))
  if (configKey(config) !== firstConfig) throw new Error(configChangedMessage(firstConfig, configKey(config)))
  // A store of the app's own may lack echo-rtk's parts; the provider's own has them all.
  useMemo(() => hostStore !== undefined && !joinsOuter && assertEchoStore(hostStore), [hostStore, joinsOuter])
  const [mounted, setMounted] = useState(false)
  // This page is a sign-in popup handing its answer to the page that opened it: the app is not shown.
  const [handingOver, setHandingOver] = useState(false)

  useMountEffect(() => {
    if (joinsOuter) return
    store.dispatch(startEchoSession(config))
    const runtime = runtimeOf(store.dispatch)
    let unmounted = false
    let stopWatching: (() => void) | undefined
    const show = (session: PageSession | undefined) => {
      if (unmounted) return
      // Rendering waits for the session: it has read storage, so the first render after mount is already signed in.
      setMounted(true)
      if (session?.isHandingOver !== true) return
      setHandingOver(true)
      // No opener took it: the session signs in here, and says so to the store.
      stopWatching = store.subscribe(() => !session.isHandingOver && setHandingOver(false))
    }
    // Before the session's code has loaded, the store already shows who is signed in (its first paint), but
    // for a sign-in popup's page, which shows nothing until its session has handed the sign-in over.
    if (runtime.session !== undefined) show(runtime.session)
    else if (!runtime.firstPaintWaits) show(undefined)
    else runtime.ready.then(show, () => show(undefined))
    return () => {
      unmounted = true
      stopWatching?.()
      store.dispatch(stopEchoSession())
    }
    // The config is fixed for the provider's life (checked above): the store is the only dependency.
  }, [store, joinsOuter])

  if (joinsOuter) return <>{children}</>
  if (!mounted || resolved === null || handingOver) return null
  return (
    <Provider context={EchoReduxContext} store={store}>
      <EchoAnnouncer>{children}</EchoAnnouncer>
    </Provider>
  )
}

/** The store and config of the `<EchoProvider>` this one sits in, or `null`. */
function useOuterProvider(): EchoContextValue | null {
  const outer = useContext(EchoReduxContext)
  return useMemo(() => {
    if (outer === null) return null
    const store = outer.store as EchoStore
    return { store, config: runtimeOf(store.dispatch).config }
  }, [outer])
}

/**
 * Whether a provider inside `outer` is `outer` over again: the same app on the same Echo, and no
 * store of its own or the outer's own store. A second session for the same app on one page (the
 * same stored user, renewed twice) cannot work, so another store or other settings for that app
 * throw a message saying so; another app altogether gets a session of its own.
 */
function joinsOuterProvider(outer: EchoContextValue, config: ResolvedEchoConfig, hostStore: unknown): boolean {
  if (outer.config.appId !== config.appId || outer.config.apiUrl !== config.apiUrl) return false
  const otherStore = hostStore !== undefined && hostStore !== outer.store
  const otherSettings = (Object.keys(config) as (keyof ResolvedEchoConfig)[]).filter(
    (key) => JSON.stringify(config[key]) !== JSON.stringify(outer.config[key]),
  )
  if (otherStore || otherSettings.length > 0)
    throw new Error(
      nestedProviderMessage(
        config.appId,
        otherStore ? 'another store' : `other settings (${otherSettings.join(', ')})`,
      ),
    )
  return true
}

/**
 * A layout effect in the browser: the session starts, and the re-render it asks for commits, before
 * the browser runs anything else, so the first client render is already signed in and nothing is
 * fetched before it. On a server (where layout effects warn in React 18) nothing runs anyway.
 */
const useMountEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect
