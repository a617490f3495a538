import { createEchoServer } from 'echo-rtk/server'

import { echoSettings } from './echoSettings'

/** Echo on this server, made once per process: it verifies each request's user and bills them. */
export const echo = createEchoServer(echoSettings())
