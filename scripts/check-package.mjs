// The packed package as users get it: publint, are-the-types-wrong, and entries that pull in only
// what they should (echo-rtk/client: no React, no Redux, no DOM-only code).
import { readFileSync } from 'node:fs'

import { heading, run } from './run.mjs'

const entryImports = {
  'dist/client.js': ['async-mutex'],
  'dist/client.cjs': ['async-mutex'],
}

let failures = 0
heading('publint --strict')
failures += (await run('npx', ['publint', '--strict'])) === 0 ? 0 : 1
heading('attw --pack .')
failures += (await run('npx', ['attw', '--pack', '.'])) === 0 ? 0 : 1

heading('entry imports')
for (const [file, allowed] of Object.entries(entryImports)) {
  const source = readFileSync(file, 'utf8')
  const imported = [...source.matchAll(/(?:from\s*|require\(\s*|import\(\s*)["']([^"'./][^"']*)["']/g)].map((m) => m[1])
  const unexpected = [...new Set(imported)].filter((name) => !allowed.includes(name))
  if (unexpected.length > 0) {
    console.error(`${file} imports ${unexpected.join(', ')}; it may import only ${allowed.join(', ')}`)
    failures += 1
  } else {
    console.log(`${file}: imports ${[...new Set(imported)].join(', ') || 'nothing'}`)
  }
}
process.exit(failures === 0 ? 0 : 1)
