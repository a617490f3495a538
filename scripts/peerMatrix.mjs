// The peer matrix: echo-rtk's store, session and component tests, and a type check of the built
// package as an app compiles it, run on each combination of peer versions that
// test/peers/combinations.json lists (both ends of every peer range, and the newest releases).
//
// Each combination gets a scratch copy in .peer-matrix/<name>: the peers and the test tools that
// import React installed there with exactly the listed versions, over the lockfile committed in
// test/peers/<name>.package-lock.json (so every run installs the same tree); src/ and the tests
// copied in; everything else (vitest, jsdom, typescript) found in the repository's own
// node_modules one folder up. A combination the repository's own install already is (the same
// versions in node_modules) is the main test run's, and is not run twice. The lowest combinations run
// on the lowest Node engines allows (runtimes.node.lowest), as an app on the oldest of everything would.
//
//   node scripts/peerMatrix.mjs            run every combination (what `npm test` does)
//   node scripts/peerMatrix.mjs NAME...    run these
//   node scripts/peerMatrix.mjs --update   let npm write new lockfiles (after editing combinations.json), then run
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

import { heading, run } from './run.mjs'
import { ensureNode, runtimes } from './toolchain.mjs'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const PEERS = join(REPO, 'test/peers')
const SCRATCH = join(REPO, '.peer-matrix')
/** The tests that meet the peers: the store, the session, the components and the testing entry. */
const TEST_FOLDERS = ['test/store', 'test/auth', 'test/components', 'test/api/query', 'test/testing']
/** Tests of the model clients (the AI SDK, openai, a dev server in a child process): not about the peers, and their packages are not in the scratch copy. */
const OFF_TOPIC_IMPORT =
  /from '(ai(-v\d)?|@ai-sdk\/[^']+|openai|@anthropic-ai\/sdk|@google\/genai)'|dev-server|devServer/

const { testTooling, combinations } = JSON.parse(readFileSync(join(PEERS, 'combinations.json'), 'utf8'))
const args = process.argv.slice(2)
const update = args.includes('--update')
const chosen = args.filter((arg) => !arg.startsWith('--'))
const unknown = chosen.filter((name) => !combinations.some((combination) => combination.name === name))
if (unknown.length > 0) {
  console.error(`No combination named ${unknown.join(', ')} in test/peers/combinations.json`)
  process.exit(2)
}

const installedVersion = (name, root = REPO) => {
  const file = join(root, 'node_modules', name, 'package.json')
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : null
}

const wanted = (combination) => ({ ...testTooling, ...combination.peers, ...combination.types })

/** Test files under `folder`, recursively. */
function testFiles(folder) {
  return readdirSync(join(REPO, folder), { recursive: true })
    .map((file) => join(folder, String(file)))
    .filter((file) => /\.test\.tsx?$/.test(file) && statSync(join(REPO, file)).isFile())
}

const VITEST_CONFIG = `import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const source = (file) => fileURLToPath(new URL('./src/' + file, import.meta.url))

// Written by scripts/peerMatrix.mjs: the repository's node and dom projects, on this copy.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^echo-rtk$/, replacement: source('index.ts') },
      { find: /^echo-rtk\\/client$/, replacement: source('client.ts') },
      { find: /^echo-rtk\\/testing$/, replacement: source('testing.ts') },
      { find: /^echo-rtk\\/server$/, replacement: source('server.ts') },
    ],
  },
  test: {
    restoreMocks: true,
    // One worker a core (vitest's default is one fewer): the legs run beside the main tests, which take one more.
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: 'node', environment: 'node', include: ['test/**/*.test.ts'], setupFiles: ['test/support/setup.ts'] } },
      { extends: true, test: { name: 'dom', environment: 'jsdom', include: ['test/**/*.test.tsx'], setupFiles: ['test/support/setup.ts'] } },
    ],
  },
})
`

/** The app's view of the built package: what a TypeScript app on these peers compiles against. */
const TSCONFIG_CONSUMER = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'Bundler',
    jsx: 'react-jsx',
    strict: true,
    // As Vite's and Next.js's app templates set it: libraries' own .d.ts files are not checked.
    skipLibCheck: true,
    noEmit: true,
    types: [],
  },
  files: ['consumer.tsx'],
}

async function runCombination(combination) {
  const dir = join(SCRATCH, combination.name)
  const lockfile = join(PEERS, `${combination.name}.package-lock.json`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const manifest = {
    name: `echo-rtk-peers-${combination.name}`,
    private: true,
    type: 'module',
    dependencies: wanted(combination),
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  if (existsSync(lockfile)) cpSync(lockfile, join(dir, 'package-lock.json'))
  else if (!update)
    return `no lockfile ${relative(REPO, lockfile)}: run node scripts/peerMatrix.mjs --update ${combination.name} and commit it`

  heading(
    `peers ${combination.name}: ${Object.entries(combination.peers)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}`,
  )
  const installArgs = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--loglevel=error']
  if (!update) installArgs.push('--no-save')
  if ((await run('npm', installArgs, { cwd: dir })) !== 0) return 'npm install failed'
  const wrong = Object.entries(wanted(combination)).filter(([name, version]) => installedVersion(name, dir) !== version)
  if (wrong.length > 0)
    return `installed ${wrong.map(([name, version]) => `${name} ${installedVersion(name, dir)} (wanted ${version})`).join(', ')}`
  if (update) cpSync(join(dir, 'package-lock.json'), lockfile)

  cpSync(join(REPO, 'src'), join(dir, 'src'), { recursive: true })
  cpSync(join(REPO, 'test/support'), join(dir, 'test/support'), { recursive: true })
  cpSync(join(REPO, 'tsconfig.json'), join(dir, 'tsconfig.json'))
  const files = TEST_FOLDERS.flatMap(testFiles)
  const included = files.filter((file) => !OFF_TOPIC_IMPORT.test(readFileSync(join(REPO, file), 'utf8')))
  for (const file of included) cpSync(join(REPO, file), join(dir, file))
  writeFileSync(join(dir, 'vitest.config.mjs'), VITEST_CONFIG)
  console.log(
    `${included.length} test files; left to the main run (model clients): ${files.filter((file) => !included.includes(file)).join(', ')}`,
  )
  const node = (combination.name.startsWith('lowest') && (await ensureNode(runtimes.node.lowest))) || process.execPath
  console.log(`on Node ${node === process.execPath ? process.version : runtimes.node.lowest}`)
  const vitest = join(REPO, 'node_modules/vitest/vitest.mjs')
  const tested = await run(
    node,
    [
      vitest,
      'run',
      '--config',
      'vitest.config.mjs',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=report.json',
    ],
    { cwd: dir },
  )
  countTests(join(dir, 'report.json'))
  if (tested !== 0) return 'tests failed'

  // The built package, as an app installs it, type-checked against these peers' own types.
  const installed = join(dir, 'node_modules/echo-rtk')
  mkdirSync(installed, { recursive: true })
  cpSync(join(REPO, 'dist'), join(installed, 'dist'), { recursive: true })
  cpSync(join(REPO, 'package.json'), join(installed, 'package.json'))
  cpSync(join(PEERS, 'consumer.tsx'), join(dir, 'consumer.tsx'))
  writeFileSync(join(dir, 'tsconfig.consumer.json'), JSON.stringify(TSCONFIG_CONSUMER, null, 2))
  const tsc = join(REPO, 'node_modules/typescript/bin/tsc')
  if ((await run(node, [tsc, '-p', 'tsconfig.consumer.json'], { cwd: dir })) !== 0)
    return 'the type check of the built package failed'
  return null
}

/** Every combination's tests together, for the closing line of `npm test` (.peer-matrix/summary.json). */
const counted = { passed: 0, failed: 0 }
function countTests(reportFile) {
  if (!existsSync(reportFile)) return
  const { numPassedTests, numFailedTests } = JSON.parse(readFileSync(reportFile, 'utf8'))
  counted.passed += numPassedTests
  counted.failed += numFailedTests
}

if (!existsSync(join(REPO, 'dist/index.d.ts'))) {
  console.error('peerMatrix: build first (npm run build): the type check reads dist/')
  process.exit(1)
}
const results = []
for (const combination of combinations.filter(
  (combination) => chosen.length === 0 || chosen.includes(combination.name),
)) {
  const ownInstall = Object.entries(wanted(combination)).every(([name, version]) => installedVersion(name) === version)
  if (ownInstall && !update && chosen.length === 0) {
    console.log(
      `\npeers ${combination.name}: the repository's own install (${Object.entries(combination.peers)
        .map(([name, version]) => `${name} ${version}`)
        .join(', ')}): run by the main tests`,
    )
    results.push([combination.name, 'the main run'])
    continue
  }
  const started = Date.now()
  const failure = await runCombination(combination)
  results.push([
    combination.name,
    failure === null ? `passed in ${Math.round((Date.now() - started) / 1000)} s` : `FAILED: ${failure}`,
  ])
}
heading('peer matrix')
for (const [name, outcome] of results) console.log(`${name}: ${outcome}`)
mkdirSync(SCRATCH, { recursive: true })
writeFileSync(join(SCRATCH, 'summary.json'), JSON.stringify(counted))
process.exit(results.some(([, outcome]) => outcome.startsWith('FAILED')) ? 1 : 0)
