// The packed package as users get it: publint, are-the-types-wrong, and entries that pull in only
// what they should (echo-rtk/client and echo-rtk/server: no React, no Redux, no oidc-client-ts,
// nothing DOM-only).
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

import { heading, run } from './run.mjs'

/** The packages each built entry may reach, following its own chunks. */
const allowedImports = {
  'dist/client.js': ['async-mutex'],
  'dist/client.cjs': ['async-mutex'],
  // In server mode it plays the app's server with echo-rtk/server's own handler, which reaches async-mutex.
  'dist/testing.js': ['msw', 'async-mutex'],
  'dist/testing.cjs': ['msw', 'async-mutex'],
  // The app's own server: no React, no Redux, no oidc-client-ts, nothing DOM-only.
  'dist/server.js': ['async-mutex'],
  'dist/server.cjs': ['async-mutex'],
  'dist/index.js': [
    'async-mutex',
    'oidc-client-ts',
    '@reduxjs/toolkit',
    '@reduxjs/toolkit/query',
    '@reduxjs/toolkit/query/react',
    'react',
    'react/jsx-runtime',
    'react-redux',
  ],
  'dist/index.cjs': [
    'async-mutex',
    'oidc-client-ts',
    '@reduxjs/toolkit',
    '@reduxjs/toolkit/query',
    '@reduxjs/toolkit/query/react',
    'react',
    'react/jsx-runtime',
    'react-redux',
  ],
}

/** Every package `file` reaches, through the relative imports of its chunks. */
function packagesReached(file, seen = new Set()) {
  if (seen.has(file)) return new Set()
  seen.add(file)
  const source = readFileSync(file, 'utf8')
  const reached = new Set()
  for (const [, specifier] of source.matchAll(
    /(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*|^import\s*)["']([^"']+)["']/gm,
  )) {
    if (specifier.startsWith('.'))
      for (const name of packagesReached(join(dirname(file), specifier), seen)) reached.add(name)
    else reached.add(specifier)
  }
  return reached
}

let failures = 0
heading('publint --strict')
failures += (await run('npx', ['publint', '--strict'])) === 0 ? 0 : 1
heading('attw --pack .')
failures += (await run('npx', ['attw', '--pack', '.'])) === 0 ? 0 : 1

heading('entry imports')
for (const [file, allowed] of Object.entries(allowedImports)) {
  const reached = [...packagesReached(file)]
  const unexpected = reached.filter((name) => !allowed.includes(name))
  if (unexpected.length > 0) {
    console.error(`${file} reaches ${unexpected.join(', ')}; it may reach only ${allowed.join(', ')}`)
    failures += 1
  } else {
    console.log(`${file}: reaches ${reached.join(', ') || 'nothing'}`)
  }
}
for (const file of ['dist/index.js', 'dist/index.cjs']) {
  if (!readFileSync(file, 'utf8').startsWith("'use client'")) {
    console.error(`${file} does not open with 'use client': Next.js App Router pages could not import it`)
    failures += 1
  }
}
process.exit(failures === 0 ? 0 : 1)
