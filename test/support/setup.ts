import './webStorage'

import { afterAll, afterEach, beforeAll } from 'vitest'

import { loadSessionCode } from '../../src/auth/loadSession'
import { server } from './server'

// The session code loads once per page, as in a browser after the first store's start: the tests that
// follow a page's first store from before its session has loaded say so (test/auth/firstPaint.test.tsx).
await Promise.all([loadSessionCode('browser'), loadSessionCode('server')])

// Unhandled requests fail the test: msw 2 reads `onUnhandledRequest`, msw 3 `onUnhandledFrame` (each ignores the
// other's key; given as a variable, not a literal, so the type of either major takes it).
const unhandledAsErrors = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const

beforeAll(() => server.listen(unhandledAsErrors))
afterEach(async () => {
  server.resetHandlers()
  // What a tab remembers (a route an API host lacks) is each test's own.
  globalThis.sessionStorage?.clear()
  if (typeof document !== 'undefined') (await import('@testing-library/react')).cleanup()
})
afterAll(() => server.close())
