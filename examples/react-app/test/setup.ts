// The demo's own tests: an msw Echo for each test, cleaned up after it (handlers, the stored session, the DOM).
import { cleanup } from '@testing-library/react'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'

import { clearEchoSession } from 'echo-rtk/testing'

export const server = setupServer()

// On Node 25 and later, vitest 4 leaves Node's own `localStorage` (empty without `--localstorage-file`)
// in place of the DOM's: put jsdom's back, or a happy-dom Storage. vitest 5 needs none of this.
if (
  typeof Object.getOwnPropertyDescriptor(globalThis, 'localStorage')?.get === 'function' &&
  !globalThis.localStorage
) {
  const { jsdom } = globalThis as { jsdom?: { window: Pick<Window, 'localStorage' | 'sessionStorage'> } }
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    const value = jsdom?.window[name] ?? new Storage()
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true })
  }
}

// Unhandled requests fail the test: msw 2 reads `onUnhandledRequest`, msw 3 `onUnhandledFrame` (each ignores the
// other's key; given as a variable, not a literal, so the type of either major takes it).
const unhandledAsErrors = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const

beforeAll(() => server.listen(unhandledAsErrors))
afterEach(() => {
  cleanup()
  server.resetHandlers()
  clearEchoSession()
  window.history.replaceState(null, '', '/')
})
afterAll(() => server.close())
