import { readFile, writeFile } from 'node:fs/promises'

import { defineConfig } from 'tsup'

/** The React entry must open with 'use client' for Next.js App Router; esbuild drops directives when bundling. */
async function addUseClient(file: string): Promise<void> {
  const code = await readFile(file, 'utf8')
  if (code.startsWith("'use client'")) return
  await writeFile(file, `'use client';\n${code}`)
  const map = JSON.parse(await readFile(`${file}.map`, 'utf8')) as { mappings: string }
  map.mappings = `;${map.mappings}` // the added line shifts every mapping down one line
  await writeFile(`${file}.map`, JSON.stringify(map))
}

export default defineConfig({
  entry: { index: 'src/index.ts', client: 'src/client.ts', testing: 'src/testing.ts', server: 'src/server.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  treeshake: true,
  // One copy of shared code (EchoError, the coordinator) for both entries, in ESM and CJS alike,
  // so `instanceof EchoError` holds whichever entry a value came from.
  splitting: true,
  onSuccess: async () => {
    await Promise.all([addUseClient('dist/index.js'), addUseClient('dist/index.cjs')])
  },
})
