// `npm test`: everything CI checks, in order, then one closing line `N passed, N failed`.
import { readFileSync, rmSync } from 'node:fs'
import { delimiter, dirname } from 'node:path'

import { ensureChromium } from './ensureChromium.mjs'
import { heading, run } from './run.mjs'
import { ensureNode, LOWEST_NODE_REPORT, majorOf, runtimes } from './toolchain.mjs'

// On a Node older than any engines allows (Node 20 on these machines), everything runs on the Node the
// tests are made for, from the registry: this script again, with that Node first on the PATH.
if (majorOf(process.version) < majorOf(runtimes.node.lowest)) {
  const node = await ensureNode(runtimes.node.suite)
  if (node === null) {
    console.error(`npm test needs Node ${runtimes.node.lowest} or later (this is ${process.version})`)
    process.exit(1)
  }
  heading(`Node ${process.version} is older than echo-rtk supports: the tests run on Node ${runtimes.node.suite}`)
  const PATH = `${dirname(node)}${delimiter}${process.env.PATH}`
  process.exit(await run(node, process.argv.slice(1), { env: { ...process.env, PATH } }))
}

const report = '.vitest-report.json'
const PEER_STEP = 'peer matrix (test/peers/combinations.json)'
/** The steps that run tests go on failing: the rest stop the run at their first failure. */
const LOWEST_NODE_STEP = `lowest Node (${runtimes.node.lowest}): client, server, testing`
const isTestRun = (name) => name.startsWith('unit') || name === PEER_STEP || name === LOWEST_NODE_STEP
const peerReport = '.peer-matrix/summary.json'
// The build comes first: the Next.js example type-checks and lints against `dist`, as an app would.
const steps = [
  ['build', 'npm', ['run', '--silent', 'build']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  [`typecheck on TypeScript ${runtimes.typescript}`, 'node', ['scripts/otherRuntimes.mjs', 'typescript']],
  ['freshness of the tested versions (the npm registry)', 'node', ['scripts/checkFreshness.mjs']],
  ['public API (api-report.md)', 'node', ['scripts/api-report.mjs', '--check']],
  [
    'unit, component, type and e2e tests',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  ],
  [LOWEST_NODE_STEP, 'node', ['scripts/otherRuntimes.mjs', 'lowest-node']],
  [PEER_STEP, 'node', ['scripts/peerMatrix.mjs']],
  ['package checks (publint, attw, entry purity)', 'npm', ['run', '--silent', 'check:package']],
  ['bundle size', 'node', ['scripts/check-size.mjs']],
]

for (const file of [report, peerReport, LOWEST_NODE_REPORT]) rmSync(file, { force: true })
const failedSteps = []
heading('a browser for the e2e tests')
if (!ensureChromium()) failedSteps.push('chromium for the e2e tests')
for (const [name, command, args] of failedSteps.length > 0 ? [] : steps) {
  heading(name)
  const code = await run(command, args)
  if (code !== 0) {
    failedSteps.push(name)
    if (!isTestRun(name)) break
  }
}

let passed = 0
let failed = 0
try {
  const results = JSON.parse(readFileSync(report, 'utf8'))
  passed = results.numPassedTests
  failed = results.numFailedTests
} catch {
  console.error('No vitest report was written: the tests did not run.')
}
// The lowest Node's run of the tests, when it ran.
let lowestNodeFailed = 0
try {
  const lowest = JSON.parse(readFileSync(LOWEST_NODE_REPORT, 'utf8'))
  passed += lowest.numPassedTests
  lowestNodeFailed = lowest.numFailedTests
} catch {
  // not run
}
failed += lowestNodeFailed
// The peer matrix's own runs of the tests, when it ran.
let matrixFailed = 0
try {
  const matrix = JSON.parse(readFileSync(peerReport, 'utf8'))
  passed += matrix.passed
  matrixFailed = matrix.failed
} catch {
  // not run
}
failed += matrixFailed
if (failedSteps.length > 0) console.error(`\nFailed: ${failedSteps.join(', ')}`)
// Steps that are not test runs count as one check each in the closing line, and so does a peer
// matrix that failed with every test passing (an install, or its type check).
failed += failedSteps.filter((name) => !isTestRun(name)).length
if (failedSteps.includes(PEER_STEP) && matrixFailed === 0) failed += 1
if (failedSteps.includes(LOWEST_NODE_STEP) && lowestNodeFailed === 0) failed += 1
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failedSteps.length > 0 || failed > 0 || passed === 0 ? 1 : 0)
