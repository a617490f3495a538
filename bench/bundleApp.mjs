// The same minimal app (EchoProvider + useEcho + EchoSignIn), bundled with the esbuild settings of
// docs/performance.md for whichever SDK provides those three names: minified, gzip -9 and brotli bytes, and
// the minified bytes of each package, from esbuild's metafile. Shared by `npm run bench` and
// scripts/check-size.mjs; needs nothing but esbuild and Node.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

import { build } from 'esbuild'

/** Echo's SDK checks that the app id is a UUID v4; one id serves both SDKs. */
export const APP_ID = '60601628-cdb7-481e-8f7e-921981220348'

/**
 * The app, word for word the same for both SDKs but for the package it imports; `session: 'server'`
 * makes it echo-rtk's server mode (the app's own server holds the session: no token in the page).
 */
function appSource(packageName, session) {
  const config = session === 'server' ? `{ appId: '${APP_ID}', session: 'server' }` : `{ appId: '${APP_ID}' }`
  return `import { createRoot } from 'react-dom/client'
import { EchoProvider, EchoSignIn, useEcho } from '${packageName}'

function Account() {
  const { user, balance } = useEcho()
  return <p>{user?.name} {balance?.balance}</p>
}

function App() {
  return (
    <EchoProvider config={${config}}>
      <EchoSignIn />
      <Account />
    </EchoProvider>
  )
}

createRoot(document.getElementById('root')).render(<App />)
`
}

/** The budget's settings (docs/performance.md): react, react-dom and react/jsx-runtime stay external. */
export const BUDGET_SETTINGS = {
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  external: ['react', 'react-dom', 'react/jsx-runtime'],
  metafile: true,
  write: false,
  logLevel: 'silent',
}

/**
 * Bundles the app, importing `packageName`, in a fresh directory outside the repo, so that nothing
 * the repo happens to have installed can be picked up. Either `packageDir` is linked in as the
 * app's one package (its dependencies resolve from where it lives, as for a package in a user's
 * app), or `nodeModulesDir` becomes the app's whole node_modules, symlinks kept, as if the app had
 * installed exactly that tree. With `ownCodeOnly`, every dependency of the package is external
 * too, leaving its own code. `session` is the app's session mode (echo-rtk's `'browser'` or `'server'`).
 * @param {{ packageName: string, packageDir?: string, nodeModulesDir?: string, ownCodeOnly?: boolean, session?: 'browser' | 'server' }} options
 */
export async function bundleApp({ packageName, packageDir, nodeModulesDir, ownCodeOnly = false, session = 'browser' }) {
  const workDir = mkdtempSync(join(tmpdir(), 'echo-bundle-'))
  try {
    if (nodeModulesDir) {
      symlinkSync(nodeModulesDir, join(workDir, 'node_modules'), 'dir')
    } else {
      mkdirSync(join(workDir, 'node_modules', ...packageName.split('/').slice(0, -1)), { recursive: true })
      symlinkSync(packageDir, join(workDir, 'node_modules', packageName), 'dir')
    }
    writeFileSync(join(workDir, 'package.json'), JSON.stringify({ name: 'bench-app', private: true, type: 'module' }))
    writeFileSync(join(workDir, 'app.jsx'), appSource(packageName, session))
    const result = await build({
      ...BUDGET_SETTINGS,
      entryPoints: [join(workDir, 'app.jsx')],
      // As an app's bundler does it: what the package loads on demand (import()) becomes chunks of its own.
      splitting: true,
      outdir: join(workDir, 'out'),
      absWorkingDir: workDir,
      // The package is read where the app sees it (node_modules/<name>/...), never through the link to
      // wherever it was checked out: esbuild's chunk names hash the input paths, and a path that
      // changed with the checkout changed the names, their gzip bytes and so the size guard's figures.
      preserveSymlinks: true,
      plugins: ownCodeOnly ? [externalDependencies(packageName)] : [],
    })
    const chunks = chunksOf(result, session)
    const firstLoad = chunks.filter((chunk) => chunk.firstLoad)
    // The whole app: every chunk it ever loads (its own mode's session and sign-in, not the models list).
    const whole = chunks.filter((chunk) => chunk.used)
    return {
      ...sizes(firstLoad),
      whole: sizes(whole),
      chunks: chunks.map(({ name, gzip, firstLoad: initial }) => ({ name, gzip, firstLoad: initial })),
      packages: packageBreakdown(result.metafile, packageName, new Set(whole.map((chunk) => chunk.path))),
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** Every bare import but the package under test becomes external. */
function externalDependencies(packageName) {
  return {
    name: 'external-dependencies',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path === packageName || args.path.startsWith(`${packageName}/`)
          ? undefined
          : { path: args.path, external: true },
      )
    },
  }
}

/** echo-rtk's session chunk of each mode (by its file in dist/): the page loads its own mode's only. */
const SESSION_CHUNKS = { browser: /\/EchoSession-[\w-]+\.js$/, server: /\/ServerSession-[\w-]+\.js$/ }

/**
 * Each output chunk: its gzip size, whether the page loads it before its first paint (the entry and
 * what it imports statically, transitively: echo-rtk's session loads after the first paint, which the
 * store already shows), whether the app ever loads it (`used`: reachable from the entry by any import,
 * but the other mode's session and the models list, which this app never asks for).
 */
function chunksOf(result, session) {
  const outputs = result.metafile.outputs
  const holds = (path, pattern) => Object.keys(outputs[path]?.inputs ?? {}).some((input) => pattern.test(input))
  const otherMode = SESSION_CHUNKS[session === 'server' ? 'browser' : 'server']
  const reach = (kinds) => {
    const reached = new Set()
    const visit = (path) => {
      if (reached.has(path) || holds(path, otherMode) || holds(path, /echoSdkModels/)) return
      reached.add(path)
      for (const { path: imported, kind } of outputs[path]?.imports ?? [])
        if (kinds.includes(kind) && outputs[imported]) visit(imported)
    }
    for (const [path, output] of Object.entries(outputs)) if (output.entryPoint === 'app.jsx') visit(path)
    return reached
  }
  const initial = reach(['import-statement'])
  const used = reach(['import-statement', 'dynamic-import'])
  return result.outputFiles
    .map((file) => {
      const path = Object.keys(outputs).find((key) => file.path.endsWith(key))
      return {
        path,
        name: path.split('/').pop(),
        code: file.contents,
        gzip: gzipSync(file.contents, { level: 9 }).byteLength,
        firstLoad: initial.has(path),
        used: used.has(path),
      }
    })
    .filter((chunk) => chunk.path?.endsWith('.js'))
}

/** Minified, gzip -9 and brotli bytes of these chunks together (each compressed on its own, as a server sends them). */
function sizes(chunks) {
  return {
    minified: chunks.reduce((sum, chunk) => sum + chunk.code.byteLength, 0),
    gzip: chunks.reduce((sum, chunk) => sum + chunk.gzip, 0),
    brotli: chunks.reduce(
      (sum, chunk) =>
        sum +
        brotliCompressSync(chunk.code, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: chunk.code.byteLength },
        }).byteLength,
      0,
    ),
  }
}

/** Minified bytes per package in `outputPaths`, largest first; the package's own files under its name. */
function packageBreakdown(metafile, packageName, outputPaths) {
  const bytes = new Map()
  for (const [outputPath, output] of Object.entries(metafile.outputs)) {
    if (!outputPaths.has(outputPath)) continue
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(path) ?? (path === 'app.jsx' ? 'app' : packageName)
      bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput)
    }
  }
  return [...bytes]
    .map(([name, size]) => ({ name, bytes: size }))
    .filter((p) => p.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes)
}

/** `…/node_modules/@scope/name/…` -> `@scope/name` (the innermost node_modules wins). */
function packageOf(path) {
  const parts = path.split(/[\\/]/)
  const at = parts.lastIndexOf('node_modules')
  if (at < 0) return undefined
  return parts[at + 1]?.startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1]
}
