// `npm test`: everything CI checks, in order, then one closing line `N passed, N failed`.
import { readFileSync, rmSync } from 'node:fs'

import { ensureChromium } from './ensureChromium.mjs'
import { heading, run } from './run.mjs'

const report = '.vitest-report.json'
// The build comes first: the Next.js example type-checks and lints against `dist`, as an app would.
const steps = [
  ['build', 'npm', ['run', '--silent', 'build']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['public API (api-report.md)', 'node', ['scripts/api-report.mjs', '--check']],
  ['unit, component, type and e2e tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]],
  ['package checks (publint, attw, entry purity)', 'npm', ['run', '--silent', 'check:package']],
  ['bundle size (DESIGN §6)', 'node', ['scripts/check-size.mjs']],
]

rmSync(report, { force: true })
const failedSteps = []
heading('a browser for the e2e tests')
if (!ensureChromium()) failedSteps.push('chromium for the e2e tests')
for (const [name, command, args] of failedSteps.length > 0 ? [] : steps) {
  heading(name)
  const code = await run(command, args)
  if (code !== 0) {
    failedSteps.push(name)
    if (!name.startsWith('unit')) break
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
if (failedSteps.length > 0) console.error(`\nFailed: ${failedSteps.join(', ')}`)
// Steps that are not vitest tests count as one check each in the closing line.
failed += failedSteps.filter((name) => !name.startsWith('unit')).length
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failedSteps.length > 0 || failed > 0 || passed === 0 ? 1 : 0)
