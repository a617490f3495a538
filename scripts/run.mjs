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
