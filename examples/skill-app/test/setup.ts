// The skill's "./setup" for its testing example: msw's server, listening, with unhandled requests
// as errors; after each test the DOM is cleaned up and the handlers reset.
import { cleanup } from '@testing-library/react'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'

import '../../../test/support/webStorage'

export const server = setupServer()

// msw 2 reads `onUnhandledRequest`, msw 3 `onUnhandledFrame`; each ignores the other's.
const unhandledAsErrors = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const

beforeAll(() => server.listen(unhandledAsErrors))
afterEach(() => {
  cleanup()
  server.resetHandlers()
})
afterAll(() => server.close())
