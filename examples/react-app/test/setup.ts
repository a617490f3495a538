// The demo's own tests: an msw Echo for each test, cleaned up after it (handlers, the stored session, the DOM).
import { cleanup } from '@testing-library/react'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'

import { clearEchoSession } from 'echo-rtk/testing'

export const server = setupServer()

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  cleanup()
  server.resetHandlers()
  clearEchoSession()
  window.history.replaceState(null, '', '/')
})
afterAll(() => server.close())
