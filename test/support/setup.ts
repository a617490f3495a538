import './webStorage'

import { afterAll, afterEach, beforeAll } from 'vitest'

import { server } from './server'

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(async () => {
  server.resetHandlers()
  if (typeof document !== 'undefined') (await import('@testing-library/react')).cleanup()
})
afterAll(() => server.close())
