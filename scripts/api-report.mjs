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

if (!existsSync(`${root}dist/index.d.ts`)) {
  console.error('api-report: dist/index.d.ts is missing: run `npm run build` first.')
  process.exit(1)
}

let failed = false
for (const [entry, configFile] of ENTRIES) {
  const config = ExtractorConfig.loadFileAndPrepare(`${root}${configFile}`)
  const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false, messageCallback: quiet })
  const names = countNames(config.reportFilePath)
  if (!result.succeeded) {
    failed = true
    console.error(
      result.apiReportChanged
        ? `api-report: ${entry}'s public API changed (${names} names): run \`npm run api-report\` and commit api/`
        : `api-report: API Extractor failed on ${entry} (${result.errorCount} errors)`,
    )
  } else console.log(`api-report: ${entry}: ${names} names${check ? ', as api/ says' : ''}`)
}
process.exit(failed ? 1 : 0)

/** API Extractor's own progress lines stay quiet; its warnings and errors are said. */
function quiet(message) {
  if (message.logLevel === 'verbose' || message.logLevel === 'info') message.handled = true
}

/** How many names a report lists: its exported declarations. */
function countNames(reportFile) {
  if (!existsSync(reportFile)) return 0
  return (
    readFileSync(reportFile, 'utf8').match(
      /^export (?:declare )?(?:abstract )?(?:class|const|function|interface|type|enum|namespace|let|var) /gm,
    )?.length ?? 0
  )
}
