// The runs of `npm test` on what the lockfile does not hold (scripts/toolchain.mjs installs each):
//
//   node scripts/otherRuntimes.mjs typescript   the source, and the built package as an app compiles
//                                               it, type-checked on the newest TypeScript (7)
//   node scripts/otherRuntimes.mjs lowest-node  what runs on the user's own Node (echo-rtk/client,
//                                               echo-rtk/server, echo-rtk/testing) and the built
//                                               package's type check, on the lowest Node engines names
//   node scripts/otherRuntimes.mjs app-tests    the demo's tests as an app runs them: the packed
//                                               package installed in .tools/app-tests, on the newest
//                                               vitest, on jsdom and on happy-dom (needs dist/)
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { run } from './run.mjs'
import { ensureNode, ensureTypeScript, reportOf, runtimes } from './toolchain.mjs'

const REPO = fileURLToPath(new URL('..', import.meta.url))

/** The tests of the entries that run on the user's Node, and what they stand on. */
const ON_USERS_NODE = ['test/api', 'test/client.test.ts', 'test/server.test.ts', 'test/server', 'test/testing']
/** An app's code against the built package (test/peers/consumer.tsx), as a Vite or Next.js app compiles it. */
const CONSUMER = 'test/peers/tsconfig.consumer.json'

async function newestTypeScript() {
  const tsc = await ensureTypeScript(runtimes.typescript)
  if (tsc === null) return 1
  console.log(
    `TypeScript ${runtimes.typescript}: the source (tsconfig.json), then the built package as an app compiles it`,
  )
  const source = await run(process.execPath, [tsc, '--noEmit', '-p', '.'])
  const consumer = await run(process.execPath, [tsc, '-p', CONSUMER])
  return source === 0 && consumer === 0 ? 0 : 1
}

async function lowestNode() {
  const node = await ensureNode(runtimes.node.lowest)
  if (node === null) {
    console.log(
      `No Node ${runtimes.node.lowest} from the registry for ${process.platform}-${process.arch}: not run here`,
    )
    return 0
  }
  const report = reportOf('lowest-node')
  console.log(`Node ${runtimes.node.lowest}: ${ON_USERS_NODE.join(', ')}; then the built package's type check`)
  const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--project', 'node', '--project', 'dom']
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`]
  const tested = await run(node, [...vitest, ...reporters, ...ON_USERS_NODE])
  const typed = await run(node, ['node_modules/typescript/bin/tsc', '-p', CONSUMER])
  if (!existsSync(report)) console.error('No report from the lowest Node run: its tests did not run.')
  return tested === 0 && typed === 0 ? 0 : 1
}

/** What the demo app installs beside echo-rtk, at the versions of this repository's own install. */
const APP_PACKAGES = [
  'react',
  'react-dom',
  'react-redux',
  '@reduxjs/toolkit',
  'msw',
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/react',
  '@testing-library/react',
  '@testing-library/dom',
  '@testing-library/user-event',
  'jsdom',
]
const installedVersion = (name) =>
  JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version

const APP_VITEST_CONFIG = `import { defineConfig } from 'vitest/config'

// Written by scripts/otherRuntimes.mjs: the demo's tests, on jsdom and on happy-dom.
const project = (environment) => ({
  test: { name: environment, environment, include: ['test/**/*.test.tsx'], setupFiles: ['test/setup.ts'] },
})
export default defineConfig({ test: { projects: [project('jsdom'), project('happy-dom')] } })
`

async function appTests() {
  const { vitest, 'happy-dom': happyDom } = runtimes.appTests
  const dir = join(REPO, '.tools/app-tests')
  const report = reportOf('app-tests')
  rmSync(join(dir, 'src'), { recursive: true, force: true })
  rmSync(join(dir, 'test'), { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const packed = join(dir, 'echo-rtk.tgz')
  rmSync(packed, { force: true })
  if (
    (await run('npm', ['pack', '--silent', '--pack-destination', dir], { stdio: ['ignore', 'ignore', 'inherit'] })) !==
    0
  )
    return 1
  const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version
  cpSync(join(dir, `echo-rtk-${version}.tgz`), packed)
  rmSync(join(dir, `echo-rtk-${version}.tgz`))
  const dependencies = {
    'echo-rtk': 'file:echo-rtk.tgz',
    ...Object.fromEntries(APP_PACKAGES.map((name) => [name, installedVersion(name)])),
    vitest,
    'happy-dom': happyDom,
  }
  const manifest = { name: 'echo-rtk-app-tests', private: true, type: 'module', dependencies }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  console.log(`vitest ${vitest}, happy-dom ${happyDom}, jsdom ${dependencies.jsdom}, msw ${dependencies.msw}`)
  const install = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', '--loglevel=error']
  if ((await run('npm', install, { cwd: dir })) !== 0) return 1
  cpSync(join(REPO, 'examples/react-app/src'), join(dir, 'src'), { recursive: true })
  cpSync(join(REPO, 'examples/react-app/test'), join(dir, 'test'), { recursive: true })
  const tsconfig = {
    compilerOptions: { jsx: 'react-jsx', module: 'ESNext', target: 'ES2022', moduleResolution: 'Bundler' },
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
  writeFileSync(join(dir, 'vitest.config.mjs'), APP_VITEST_CONFIG)
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${join(REPO, report)}`]
  return run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...reporters], { cwd: dir })
}

const legs = { typescript: newestTypeScript, 'lowest-node': lowestNode, 'app-tests': appTests }
const leg = legs[process.argv[2]]
if (leg === undefined) {
  console.error(`Usage: node scripts/otherRuntimes.mjs ${Object.keys(legs).join(' | ')}`)
  process.exit(2)
}
process.exitCode = await leg()
