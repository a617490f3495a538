// `npm test`: everything CI checks, in order, then one closing line `N passed, N failed`.
import { readFileSync, rmSync } from 'node:fs'
import { delimiter, dirname } from 'node:path'

import { ensureChromium } from './ensureChromium.mjs'
import { heading, run } from './run.mjs'
import { ensureNode, majorOf, reportOf, runtimes } from './toolchain.mjs'

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
const peerReport = '.peer-matrix/summary.json'
const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}
/** A vitest JSON report's counts, or `null` when it was not written. */
const vitestCounts = (file) => () => {
  const results = readJson(file)
  return results === null ? null : { passed: results.numPassedTests, failed: results.numFailedTests }
}
const otherRuntime = (leg) => ['node', ['scripts/otherRuntimes.mjs', leg]]

const mainTests = {
  name: 'unit, component, type and e2e tests',
  command: ['npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]],
  counts: vitestCounts(report),
}

// Each step: its name, its command, and for a run of tests, where its counts are read (a step that
// runs tests goes on failing; any other stops the run at its first failure). The build comes first:
// the Next.js example type-checks and lints against `dist`, as an app would.
const steps = [
  { name: 'build', command: ['npm', ['run', '--silent', 'build']] },
  { name: 'lint', command: ['npm', ['run', '--silent', 'lint']] },
  { name: 'typecheck', command: ['npm', ['run', '--silent', 'typecheck']] },
  { name: `typecheck on TypeScript ${runtimes.typescript}`, command: otherRuntime('typescript') },
  {
    name: 'freshness of the tested versions (the npm registry)',
    command: ['node', ['scripts/checkFreshness.mjs']],
  },
  { name: 'public API (api-report.md)', command: ['node', ['scripts/api-report.mjs', '--check']] },
  mainTests,
  {
    name: `lowest Node (${runtimes.node.lowest}): client, server, testing`,
    command: otherRuntime('lowest-node'),
    counts: vitestCounts(reportOf('lowest-node')),
  },
  {
    name: `the demo's tests as an app runs them (vitest ${runtimes.appTests.vitest}, jsdom and happy-dom)`,
    command: otherRuntime('app-tests'),
    counts: vitestCounts(reportOf('app-tests')),
  },
  {
    name: 'peer matrix (test/peers/combinations.json)',
    command: ['node', ['scripts/peerMatrix.mjs']],
    counts: () => readJson(peerReport),
  },
  { name: 'package checks (publint, attw, entry purity)', command: ['npm', ['run', '--silent', 'check:package']] },
  { name: 'bundle size', command: ['node', ['scripts/check-size.mjs']] },
]

for (const file of [report, peerReport, reportOf('lowest-node'), reportOf('app-tests')]) rmSync(file, { force: true })
const failedSteps = []
/** How long each step took, in seconds, for the table at the end (CONTRIBUTING.md, "Where CI's time goes"). */
const took = []
heading('a browser for the e2e tests')
if (!ensureChromium()) failedSteps.push({ name: 'chromium for the e2e tests' })
for (const step of failedSteps.length > 0 ? [] : steps) {
  heading(step.name)
  const started = performance.now()
  const code = await run(...step.command)
  took.push({ name: step.name, seconds: (performance.now() - started) / 1000, ok: code === 0 })
  if (code !== 0) {
    failedSteps.push(step)
    if (step.counts === undefined) break
  }
}
heading('where the time went')
for (const { name, seconds, ok } of took)
  console.log(`${seconds.toFixed(0).padStart(5)} s  ${ok ? 'ok    ' : 'FAILED'}  ${name}`)

// Every run of tests adds its counts. A step that failed with no failed test (an install, a type
// check, a step that is not a test run) counts as one failed check.
let passed = 0
let failed = 0
for (const step of steps) {
  const counts = step.counts?.() ?? null
  if (counts !== null) {
    passed += counts.passed
    failed += counts.failed
  }
  if (failedSteps.includes(step) && (counts === null || counts.failed === 0)) failed += 1
}
if (mainTests.counts() === null) console.error('No vitest report was written: the tests did not run.')
if (failedSteps.length > 0) console.error(`\nFailed: ${failedSteps.map((step) => step.name).join(', ')}`)
failed += failedSteps.filter((step) => !steps.includes(step)).length
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failedSteps.length > 0 || failed > 0 || passed === 0 ? 1 : 0)
