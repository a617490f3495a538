import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const START_TIMEOUT_MS = 10_000
const STOP_TIMEOUT_MS = 5_000

/** Starts the loopback server in a child process; resolves to its base URL and a stop function. */
export function startLoopbackServer() {
  const child = fork(fileURLToPath(new URL('./loopbackServer.mjs', import.meta.url)), { stdio: 'inherit' })
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done()
      // Asked to close, it exits; if it has not after a while, it is killed.
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
      child.once('exit', () => {
        clearTimeout(timer)
        done()
      })
      if (child.connected) child.disconnect()
      else child.kill('SIGTERM')
    })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the loopback server did not start within ${START_TIMEOUT_MS} ms`))
    }, START_TIMEOUT_MS)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('message', ({ port }) => {
      clearTimeout(timer)
      resolve({ url: `http://127.0.0.1:${port}`, stop })
    })
  })
}
