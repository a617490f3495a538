// Small helpers shared by the repo's scripts: run a command with live output, and say where we are.
import { spawn } from 'node:child_process'

/** Runs `command args` with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`)
      resolve(1)
    })
  })
}

export function heading(text) {
  console.log(`\n=== ${text} ===`)
}

/** Runs `command args` with its output (stdout and stderr, in order) kept; resolves to its exit code and that output. */
export function runQuietly(command, args, options = {}) {
  return new Promise((resolve) => {
    const chunks = []
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
    child.stdout.on('data', (chunk) => chunks.push(chunk))
    child.stderr.on('data', (chunk) => chunks.push(chunk))
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks) }))
    child.on('error', (error) => resolve({ code: 1, output: Buffer.from(`${command}: ${error.message}\n`) }))
  })
}
