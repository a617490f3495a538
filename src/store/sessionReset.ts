/**
 * The type of the action that forgets a store's session and echo-rtk's state in it: the session
 * stops and is dropped (the next `startEchoSession` makes a new one), and the auth, balance and
 * API state go back to where a new store starts. `resetEchoStore` in `echo-rtk/testing` sends it,
 * for a test suite that keeps one store for every test. A plain string: the testing entry sends it
 * without Redux.
 * @internal
 */
export const SESSION_RESET = 'echo/resetSession'

/** @internal */
export const isSessionReset = (action: unknown): boolean => (action as { type?: unknown } | null)?.type === SESSION_RESET
