// @vitest-environment jsdom
import { configureStore } from '@reduxjs/toolkit'
import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => {
  vi.unstubAllEnvs()
  vi.resetModules()
})

/** echo-rtk as an app's production bundle runs it: NODE_ENV is `production` when the modules load. */
async function loadInProduction() {
  vi.stubEnv('NODE_ENV', 'production')
  vi.resetModules()
  return import('echo-rtk')
}

const todos = (state: string[] = []) => state

describe('setup messages in a production build', () => {
  it('still say what is wrong, without the development recipe', async () => {
    const { echoApi, echoMiddleware, echoReducers, startEchoSession, stopEchoSession } = await loadInProduction()

    const noReducers = configureStore({
      reducer: { todos },
      middleware: (getDefault) => getDefault().concat(echoMiddleware),
    })
    expect(() => noReducers.dispatch(startEchoSession({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50' }))).toThrow(
      /^echo-rtk: this store has no echo reducers$/,
    )

    const noMiddleware = configureStore({
      reducer: echoReducers,
      middleware: (getDefault) => getDefault().concat(echoApi.middleware),
    })
    const missing = await noMiddleware.dispatch(echoApi.endpoints.getBalance.initiate())
    expect(missing.error?.message).toBe('echo-rtk: this store has no echoMiddleware')

    const notStarted = configureStore({
      reducer: echoReducers,
      middleware: (getDefault) => getDefault().concat(echoMiddleware),
    })
    const unstarted = await notStarted.dispatch(echoApi.endpoints.getBalance.initiate())
    expect(unstarted.error?.message).toBe('echo-rtk: this store has no Echo session yet')

    notStarted.dispatch(
      startEchoSession({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50', apiUrl: 'https://echo.test' }),
    )
    try {
      expect(() =>
        notStarted.dispatch(
          startEchoSession({ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f52', apiUrl: 'https://echo.test' }),
        ),
      ).toThrow(
        /^echo-rtk: this store's Echo session belongs to app 2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50 at https:\/\/echo\.test; it cannot switch to another config$/,
      )
    } finally {
      notStarted.dispatch(stopEchoSession())
    }
  })
})
