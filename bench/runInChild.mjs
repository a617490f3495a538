import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const CHILD = fileURLToPath(new URL('./reactChild.mjs', import.meta.url))

/**
 * Runs one React benchmark (`scenario`: renders, startUp or storm) on one SDK (`sdk`: echo-rtk or
 * echo-react-sdk) in a child process; resolves to its result. The child is killed if it has not
 * answered within `timeoutMs`, so no run outlives the bench.
 */
export function runInChild(sdk, scenario, baseUrl, timeoutMs = 90_000) {
  const child = fork(CHILD, [sdk, scenario, baseUrl], { stdio: ['ignore', 'inherit', 'pipe', 'ipc'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    let answer
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${scenario} on ${sdk} did not finish within ${timeoutMs} ms${tail(stderr)}`))
    }, timeoutMs)
    child.on('message', (message) => (answer = message))
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      if (answer?.result) return resolve({ ...answer.result, stderr: stderr.trim() })
      reject(
        new Error(
          `${scenario} on ${sdk} failed (exit ${code ?? signal}): ${answer?.error ?? 'no answer'}${tail(stderr)}`,
        ),
      )
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })
}

const tail = (text) => (text.trim() ? `\n--- its stderr ---\n${text.trim().slice(-2000)}` : '')
