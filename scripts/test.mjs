// `npm test`: everything CI checks, in order, then one closing line `N passed, N failed`.
import { readFileSync, rmSync } from 'node:fs'

import { ensureChromium } from './ensureChromium.mjs'
import { heading, run } from './run.mjs'

const report = '.vitest-report.json'
const PEER_STEP = 'peer matrix (test/peers/combinations.json)'
/** The steps that run tests go on failing: the rest stop the run at their first failure. */
const isTestRun = (name) => name.startsWith('unit') || name === PEER_STEP
const peerReport = '.peer-matrix/summary.json'
// The build comes first: the Next.js example type-checks and lints against `dist`, as an app would.
const steps = [
  ['build', 'npm', ['run', '--silent', 'build']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['public API (api-report.md)', 'node', ['scripts/api-report.mjs', '--check']],
  [
    'unit, component, type and e2e tests',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  ],
  [PEER_STEP, 'node', ['scripts/peerMatrix.mjs']],
  ['package checks (publint, attw, entry purity)', 'npm', ['run', '--silent', 'check:package']],
  ['bundle size', 'node', ['scripts/check-size.mjs']],
]

rmSync(report, { force: true })
rmSync(peerReport, { force: true })
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
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failedSteps.length > 0 || failed > 0 || passed === 0 ? 1 : 0)
