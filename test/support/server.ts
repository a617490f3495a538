import { setupServer } from 'msw/node'

/** The one msw server of the test run; tests add their handlers with `server.use(...)`. */
export const server = setupServer()
