// Echo's own React SDK lives in bench/'s own package (bench/package.json, bench/package-lock.json),
// never in the main install: installed here, on demand, when bench/node_modules is missing or older
// than the lockfile.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url))
export const BENCH_NODE_MODULES = fileURLToPath(new URL('./node_modules', import.meta.url))
export const ECHO_REACT_SDK = '@merit-systems/echo-react-sdk'
export const ECHO_TYPESCRIPT_SDK = '@merit-systems/echo-typescript-sdk'

const INSTALL_TIMEOUT_MS = 180_000
const benchFile = (path) => fileURLToPath(new URL(path, import.meta.url))

/** The version of `name` installed in bench/node_modules, or undefined. */
export function installedVersion(name) {
  const manifest = benchFile(`./node_modules/${name}/package.json`)
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined
}

/** The version bench/package.json pins for `name`. */
export function pinnedVersion(name) {
  return JSON.parse(readFileSync(benchFile('./package.json'), 'utf8')).dependencies[name]
}

/** Runs `npm install --prefix bench` unless bench/node_modules already matches the lockfile. */
export async function ensureEchoSdkInstalled() {
  const hiddenLock = benchFile('./node_modules/.package-lock.json')
  const fresh =
    existsSync(hiddenLock) &&
    statSync(hiddenLock).mtimeMs >= statSync(benchFile('./package-lock.json')).mtimeMs &&
    statSync(hiddenLock).mtimeMs >= statSync(benchFile('./package.json')).mtimeMs &&
    installedVersion(ECHO_REACT_SDK) === pinnedVersion(ECHO_REACT_SDK) &&
    installedVersion(ECHO_TYPESCRIPT_SDK) === pinnedVersion(ECHO_TYPESCRIPT_SDK)
  if (fresh) return
  console.log(
    `Installing ${ECHO_REACT_SDK}@${pinnedVersion(ECHO_REACT_SDK)} into bench/node_modules (bench's own lockfile)...`,
  )
  // `npm ci` refuses lockfiles without other platforms' optional packages here (TOOLCHAIN): install.
  const code = await new Promise((resolve) => {
    const child = spawn('npm', ['install', '--prefix', BENCH_DIR, '--no-audit', '--no-fund'], { stdio: 'inherit' })
    const timer = setTimeout(() => child.kill('SIGTERM'), INSTALL_TIMEOUT_MS)
    child.on('exit', (exitCode) => {
      clearTimeout(timer)
      resolve(exitCode ?? 1)
    })
    child.on('error', () => {
      clearTimeout(timer)
      resolve(1)
    })
  })
  if (code !== 0) throw new Error(`npm install --prefix bench failed (exit ${code})`)
  if (installedVersion(ECHO_REACT_SDK) !== pinnedVersion(ECHO_REACT_SDK)) {
    throw new Error(
      `bench/node_modules holds ${ECHO_REACT_SDK} ${installedVersion(ECHO_REACT_SDK)}, not ${pinnedVersion(ECHO_REACT_SDK)}`,
    )
  }
}
