// The API reference, generated from the TSDoc of the four entries by TypeDoc with its markdown plugin
// (typedoc.json) into docs/reference, as part of `npm run build`. A warning about echo-rtk's own docs (a
// broken link, a public type that refers to one not documented) fails it; what TypeDoc says of the
// comments inside a dependency's declaration files (Redux Toolkit's action creators' @inheritDoc) is
// printed and let be: echo-rtk cannot mend it. `npm test` then checks that the committed reference is
// what the code generates (scripts/test.mjs).
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

// `--check` (npm test, after the build has generated it): the committed reference is the generated one.
if (process.argv.includes('--check')) {
  const status = spawnSync('git', ['status', '--porcelain', '--', 'docs/reference'], { cwd: root, encoding: 'utf8' })
  if (status.status !== 0) {
    console.error(`docs: git could not say whether docs/reference is current: ${status.stderr}`)
    process.exit(1)
  }
  if (status.stdout.trim() !== '') {
    console.error(`docs: docs/reference is not what the code generates:\n${status.stdout}`)
    console.error('Run `npm run build` and commit docs/reference with the change.')
    process.exit(1)
  }
  console.log('docs: docs/reference is what the code generates')
  process.exit(0)
}

const started = performance.now()
rmSync(new URL('../docs/reference', import.meta.url), { recursive: true, force: true })
const typedoc = spawnSync('npx', ['typedoc', '--logLevel', 'Warn'], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, NO_COLOR: '1' },
})
const said = `${typedoc.stdout}${typedoc.stderr}`
const warnings = said
  .split('\n')
  .filter((line) => /^\[(warning|error)\]/.test(line) && !/^\[\w+\] Found \d+/.test(line))
const ours = warnings.filter((line) => !/ at \.\/node_modules\//.test(line))
for (const line of warnings) console.log(ours.includes(line) ? line : `${line} (a dependency's own declaration file)`)
const seconds = ((performance.now() - started) / 1000).toFixed(1)
if (typedoc.status !== 0 || ours.length > 0) {
  console.error(
    `docs: TypeDoc ${typedoc.status === 0 ? 'warned' : 'failed'} about echo-rtk's own docs: fix the comments above (${seconds} s)`,
  )
  process.exit(1)
}
console.log(`docs: the reference written to docs/reference (${seconds} s)`)
