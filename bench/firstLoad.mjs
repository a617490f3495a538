// Where a returning user's first load goes: the minimal app bundled as the size guard does it (esbuild,
// minified, code split, React external), but from echo-rtk's sources, so that esbuild's metafile names
// each file of src/ that reaches the first load. Prints a markdown table of the minified bytes by
// package and by echo-rtk folder and file, and the gzip bytes of each first-load chunk (as a server
// sends them); docs/performance.md, "Where the first load goes", holds its last output.
// `node bench/firstLoad.mjs [--session server]`
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

import { build } from 'esbuild'

import { BUDGET_SETTINGS } from './bundleApp.mjs'

const SRC = fileURLToPath(new URL('../src/', import.meta.url))
const session = process.argv.includes('server') ? 'server' : 'browser'
const workDir = mkdtempSync(join(tmpdir(), 'echo-first-load-'))
const config = session === 'server' ? "{ appId: 'app', session: 'server' }" : "{ appId: 'app' }"
writeFileSync(join(workDir, 'package.json'), JSON.stringify({ name: 'first-load-app', private: true, type: 'module' }))
writeFileSync(
  join(workDir, 'app.jsx'),
  `import { createRoot } from 'react-dom/client'
import { EchoProvider, EchoSignIn, useEcho } from ${JSON.stringify(`${SRC}index.ts`)}
function Account() {
  const { user, balance } = useEcho()
  return <p>{user?.name} {balance?.balance}</p>
}
createRoot(document.getElementById('root')).render(<EchoProvider config={${config}}><EchoSignIn /><Account /></EchoProvider>)
`,
)
try {
  const result = await build({
    ...BUDGET_SETTINGS,
    entryPoints: [join(workDir, 'app.jsx')],
    absWorkingDir: workDir,
    outdir: join(workDir, 'out'),
    splitting: true,
    nodePaths: [fileURLToPath(new URL('../node_modules', import.meta.url))],
  })
  const outputs = result.metafile.outputs
  const firstLoad = new Set()
  const visit = (path) => {
    if (firstLoad.has(path)) return
    firstLoad.add(path)
    for (const { path: imported, kind } of outputs[path].imports)
      if (kind === 'import-statement' && outputs[imported]) visit(imported)
  }
  for (const [path, output] of Object.entries(outputs)) if (output.entryPoint?.endsWith('app.jsx')) visit(path)

  const byPackage = new Map()
  const byFile = new Map()
  for (const path of firstLoad)
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path].inputs)) {
      const file =
        input.includes('/src/') && !input.includes('node_modules') ? input.slice(input.indexOf('/src/') + 5) : null
      const name = file === null ? (packageOf(input) ?? 'the app') : 'echo-rtk'
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput)
      if (file !== null) byFile.set(file, (byFile.get(file) ?? 0) + bytesInOutput)
    }
  const total = [...byPackage.values()].reduce((sum, bytes) => sum + bytes, 0)
  const gzip = result.outputFiles
    .filter((file) => [...firstLoad].some((path) => file.path.endsWith(path)) && file.path.endsWith('.js'))
    .reduce((sum, file) => sum + gzipSync(file.contents, { level: 9 }).byteLength, 0)
  const share = (bytes) => `${((bytes / total) * 100).toFixed(1)} %`
  const n = (bytes) => bytes.toLocaleString('en-US')
  console.log(`First load, ${session} mode: ${n(total)} B minified, ${n(gzip)} B gzip -9 (each chunk on its own)\n`)
  console.log('| package | minified | share |\n| --- | --- | --- |')
  for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]))
    console.log(`| ${name} | ${n(bytes)} B | ${share(bytes)} |`)
  const folders = new Map()
  for (const [file, bytes] of byFile) {
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.'
    folders.set(folder, [...(folders.get(folder) ?? []), [file, bytes]])
  }
  console.log('\n| echo-rtk folder | minified | its largest files |\n| --- | --- | --- |')
  for (const [folder, files] of [...folders].sort((a, b) => sum(b[1]) - sum(a[1]))) {
    const largest = files
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([file, bytes]) => `${file.split('/').pop()} ${n(bytes)}`)
    console.log(`| src/${folder === '.' ? '' : `${folder}/`} | ${n(sum(files))} B | ${largest.join(', ')} |`)
  }
} finally {
  rmSync(workDir, { recursive: true, force: true })
}

function sum(files) {
  return files.reduce((total, [, bytes]) => total + bytes, 0)
}

/** `…/node_modules/@scope/name/…` -> `@scope/name` (the innermost node_modules wins). */
function packageOf(path) {
  const parts = path.split(/[\\/]/)
  const at = parts.lastIndexOf('node_modules')
  if (at < 0) return undefined
  return parts[at + 1]?.startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1]
}
