// A store's run of echo-rtk's listeners: what a feature hangs on it ends with the stop, and an app's own
// listener middleware keeps its actions.
import { addListener, configureStore, createAction, createListenerMiddleware } from '@reduxjs/toolkit'
import { describe, expect, it, vi } from 'vitest'

import { echoReducers } from '../../src/store/echoReducer'
import { createEchoListeners } from '../../src/store/run'

const pinged = createAction('app/pinged')

/** A store with echo-rtk's listeners and, after them, the app's own listener middleware. */
function storeWithAppListeners() {
  const echo = createEchoListeners(console.error)
  const app = createListenerMiddleware({ extra: 'the app' })
  const store = configureStore({
    reducer: echoReducers,
    middleware: (getDefault) => getDefault().concat(echo.middleware, app.middleware),
  })
  return { store, echo }
}

/** Timers the test plays. */
function playedTimers() {
  const timers = new Map<number, () => void>()
  let handles = 0
  return {
    timers,
    setTimeout: (run: () => void) => (timers.set(++handles, run), handles),
    clearTimeout: (handle: unknown) => void timers.delete(handle as number),
  }
}

describe("a run of echo-rtk's listeners", () => {
  it('hears the actions while it runs, and none after its stop', () => {
    const { store, echo } = storeWithAppListeners()
    const controller = new AbortController()
    const heard = vi.fn()
    echo.run(controller, playedTimers()).listen({ actionCreator: pinged, effect: heard })
    store.dispatch(pinged())
    controller.abort()
    store.dispatch(pinged())
    expect(heard).toHaveBeenCalledOnce()
  })

  it('clears the timers it set at its stop, and sets none once stopped', () => {
    const page = playedTimers()
    const controller = new AbortController()
    const run = createEchoListeners(console.error).run(controller, page)
    const act = vi.fn()
    run.later(act, 1_000)
    const cancel = run.later(act, 2_000)
    cancel()
    expect(page.timers.size).toBe(1)
    controller.abort()
    expect(page.timers.size).toBe(0)
    run.later(act, 1_000)
    expect(page.timers.size).toBe(0)
    expect(act).not.toHaveBeenCalled()
  })

  it("a timer that ran is forgotten: the stop after it clears nothing of the page's", () => {
    const page = playedTimers()
    const controller = new AbortController()
    const act = vi.fn()
    createEchoListeners(console.error).run(controller, page).later(act, 1_000)
    const [handle, fire] = [...page.timers][0]!
    page.timers.delete(handle)
    fire()
    const clearTimeout = vi.spyOn(page, 'clearTimeout')
    controller.abort()
    expect(act).toHaveBeenCalledOnce()
    expect(clearTimeout).not.toHaveBeenCalled()
  })

  it('hangs one listener on the stop signal, however many listeners and timers the run holds', () => {
    const controller = new AbortController()
    const added = vi.spyOn(controller.signal, 'addEventListener')
    const run = createEchoListeners(console.error).run(controller, playedTimers())
    for (let i = 0; i < 12; i += 1) {
      run.listen({ actionCreator: pinged, effect: () => undefined })
      run.later(() => undefined, 1_000)
      run.onStop(() => undefined)
    }
    expect(added).toHaveBeenCalledOnce()
  })

  it("leaves the app's own addListener to the app's listener middleware", () => {
    const { store } = storeWithAppListeners()
    const heardBy: unknown[] = []
    store.dispatch(addListener({ actionCreator: pinged, effect: (_, { extra }) => void heardBy.push(extra) }))
    store.dispatch(pinged())
    expect(heardBy).toEqual(['the app'])
  })
})
