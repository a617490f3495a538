// The public API report, by API Extractor: each entry's names and types, from the built declarations
// (dist/*.d.ts), in api/<entry>.api.md. `npm run api-report` writes them; `npm test` runs it with
// `--check`, which fails while a report is not what the code declares. Config: api-extractor.json (the
// `echo-rtk` entry) and api/<entry>.extractor.json for the others.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'

const root = fileURLToPath(new URL('..', import.meta.url))
const ENTRIES = [
  ['echo-rtk', 'api-extractor.json'],
  ['echo-rtk/client', 'api/client.extractor.json'],
  ['echo-rtk/server', 'api/server.extractor.json'],
  ['echo-rtk/testing', 'api/testing.extractor.json'],
]
const check = process.argv.includes('--check')
/** What an app meets when it imports the React entry and the client: at most this many names, the two together. */
const MOST_NAMES = { entries: ['echo-rtk', 'echo-rtk/client'], names: 130 }

if (!existsSync(`${root}dist/index.d.ts`)) {
  console.error('api-report: dist/index.d.ts is missing: run `npm run build` first.')
  process.exit(1)
}

let failed = false
const namesOf = new Map()
for (const [entry, configFile] of ENTRIES) {
  const config = ExtractorConfig.loadFileAndPrepare(`${root}${configFile}`)
  const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false, messageCallback: quiet })
  namesOf.set(entry, exportedNames(config.reportFilePath))
  const names = namesOf.get(entry).size
  if (!result.succeeded) {
    failed = true
    console.error(
      result.apiReportChanged
        ? `api-report: ${entry}'s public API changed (${names} names): run \`npm run api-report\` and commit api/`
        : `api-report: API Extractor failed on ${entry} (${result.errorCount} errors)`,
    )
  } else console.log(`api-report: ${entry}: ${names} names${check ? ', as api/ says' : ''}`)
}
const together = new Set(MOST_NAMES.entries.flatMap((entry) => [...namesOf.get(entry)]))
if (together.size > MOST_NAMES.names) {
  failed = true
  console.error(
    `api-report: ${MOST_NAMES.entries.join(' and ')} export ${together.size} names together, more than ${MOST_NAMES.names}: ` +
      'a new name earns its place by replacing one, or goes to echo-rtk/testing if only tests need it',
  )
} else
  console.log(
    `api-report: ${MOST_NAMES.entries.join(' and ')}: ${together.size} names together (at most ${MOST_NAMES.names})`,
  )
process.exit(failed ? 1 : 0)

/** API Extractor's own progress lines stay quiet; its warnings and errors are said. */
function quiet(message) {
  if (message.logLevel === 'verbose' || message.logLevel === 'info') message.handled = true
}

/** The names a report lists: its exported declarations and re-exports (`export { skipToken }`). */
function exportedNames(reportFile) {
  if (!existsSync(reportFile)) return new Set()
  const report = readFileSync(reportFile, 'utf8')
  const declared = report.matchAll(
    /^export (?:declare )?(?:abstract )?(?:class|const|function|interface|type|enum|namespace|let|var) ([\w$]+)/gm,
  )
  const reExported = report.matchAll(/^export \{ ([\w$, ]+) \}/gm)
  return new Set([
    ...[...declared].map(([, name]) => name),
    ...[...reExported].flatMap(([, names]) => names.split(',').map((name) => name.trim())),
  ])
}
