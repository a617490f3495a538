import type { Middleware, Store, UnknownAction } from '@reduxjs/toolkit'
import { configureStore } from '@reduxjs/toolkit'
import { render } from '@testing-library/react'
import { StrictMode, type ReactNode } from 'react'

import { EchoProvider, echoReducers, type EchoConfig, type EchoRootState } from 'echo-rtk'

import { createEchoMiddleware } from '../../src/store/middleware/echoMiddleware'
import type { EchoEnvironment } from '../../src/auth/environment'
import { isAskSession } from '../../src/api/query/sessionPort'
import type { EchoRuntime } from '../../src/store/EchoRuntime'
import type { PageSession } from '../../src/auth/pageSession'
import { CONFIG } from './echoStores'

/** Renders `ui` inside `<EchoProvider>`, in StrictMode as every test here does. */
export function renderWithEcho(
  ui: ReactNode,
  { store, config = CONFIG }: { store?: Store<EchoRootState, UnknownAction>; config?: EchoConfig } = {},
) {
  return render(
    <StrictMode>
      <EchoProvider config={config} {...(store === undefined ? {} : { store })}>
        {ui}
      </EchoProvider>
    </StrictMode>,
  )
}

/**
 * A store set up like a host app's, whose session answers some methods differently: for the
 * paths a real session rarely takes (a sign-in that rejects with a non-Error, a slow sign-out).
 */
export function storeWithSessionOverrides(
  overrides: Record<string, unknown>,
  environment: Partial<EchoEnvironment> = {},
) {
  const echoMiddleware = createEchoMiddleware({
    environment: { locks: undefined, openChannel: undefined, ...environment },
  })
  const override: Middleware = () => (next) => (action) => {
    const answer = next(action)
    if (!isAskSession(action) || answer === undefined) return answer
    const runtime = answer as EchoRuntime
    const overridden = (session: PageSession) =>
      new Proxy(session, {
        get: (target, name) => {
          if (typeof name === 'string' && name in overrides) return overrides[name]
          const value: unknown = Reflect.get(target, name, target)
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
        },
      })
    return new Proxy(runtime, {
      get: (target, name) => {
        if (name === 'withSession')
          return <T,>(use: (session: PageSession) => T | Promise<T>) =>
            target.withSession((session) => use(overridden(session)))
        const value: unknown = Reflect.get(target, name, target)
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
      },
    })
  }
  return configureStore({
    reducer: echoReducers,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(override, echoMiddleware),
  })
}
