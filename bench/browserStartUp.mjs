// Start-up in real Chromium: the same minimal app on each SDK, built for production with React
// inside, served from loopback and opened with a valid session already stored. Per load: the time
// from navigation start to the first paint showing the signed-in user's name, the script run
// before it, and the requests made before it. The two SDKs' loads take turns, each in a fresh
// browser context, at each CPU throttling rate.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { build } from 'esbuild'

import { APP_ID } from './bundleApp.mjs'
import { storeSignedInUser } from './dom.mjs'
import { BENCH_NODE_MODULES, ECHO_REACT_SDK } from './echoSdk.mjs'

/** Debian's Chromium, as the e2e tests use it; playwright never downloads one. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** test/e2e/demoHarness.ts's flags. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]
export const LOADS = 20
/** 1×: this machine as it is; 4×: about a mid-range phone. */
export const RATES = [1, 4]
/** One untimed load per SDK at each rate first, so that neither side pays for the browser warming up. */
const WARM_UP_LOADS = 1
const SESSION_LIFETIME_S = 900
const SIGNED_IN_TIMEOUT_MS = 30_000
/** The page is read once every request to the stub has been answered and none has come for this long. */
const QUIET_MS = 300
const QUIET_TIMEOUT_MS = 10_000
const ELEMENT_ID = 'signed-in'
/** How often a profiled load is sampled, in microseconds. */
const PROFILE_INTERVAL_US = 100
const BINDING = '__benchSignedIn'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const fromRepo = (path) => join(REPO_ROOT, 'node_modules', path)

/**
 * How each app is built: echo-rtk as an app installs it (the built package, its dependencies
 * resolved from where it lives, React from this repo) and Echo's SDK with bench/node_modules as the
 * app's whole node_modules, as bundleApp.mjs does. Each names the Echo host in its own option
 * (echo-rtk refuses Echo's spelling).
 */
export const SDKS = {
  ours: {
    packageName: 'echo-rtk',
    linked: { 'echo-rtk': REPO_ROOT, react: fromRepo('react'), 'react-dom': fromRepo('react-dom') },
    config: (echoUrl) => ({ appId: APP_ID, apiUrl: echoUrl, baseRouterUrl: echoUrl }),
  },
  theirs: {
    packageName: ECHO_REACT_SDK,
    nodeModulesDir: BENCH_NODE_MODULES,
    config: (echoUrl) => ({ appId: APP_ID, baseEchoUrl: echoUrl }),
  },
  /** No SDK: React alone, reading the stored user itself. What any SDK's start-up is measured above. */
  react: {
    linked: { react: fromRepo('react'), 'react-dom': fromRepo('react-dom') },
    source: (echoUrl) => reactAloneSource(`oidc.user:${echoUrl}:${APP_ID}`),
  },
}

/** The same page with no SDK: the name read straight from storage, in the same element. */
function reactAloneSource(storageKey) {
  return `import { createRoot } from 'react-dom/client'

function Account() {
  const name = JSON.parse(localStorage.getItem(${JSON.stringify(storageKey)}) ?? 'null')?.profile?.name
  if (!name) return null
  return <p data-signed-in="" elementtiming="${ELEMENT_ID}">{name} </p>
}

createRoot(document.getElementById('root')).render(<Account />)
`
}

/**
 * bundleApp.mjs's minimal app, the same for both SDKs but for the package and the config; the
 * name is shown in an element of its own once `user` is known, marked for the page to find.
 */
function appSource(packageName, config) {
  return `import { createRoot } from 'react-dom/client'
import { EchoProvider, EchoSignIn, useEcho } from '${packageName}'

function Account() {
  const { user, balance } = useEcho()
  if (!user) return null
  return <p data-signed-in="" elementtiming="${ELEMENT_ID}">{user.name} {balance?.balance}</p>
}

function App() {
  return (
    <EchoProvider config={${JSON.stringify(config)}}>
      <EchoSignIn />
      <Account />
    </EchoProvider>
  )
}

createRoot(document.getElementById('root')).render(<App />)
`
}

/**
 * The app as an app's production build makes it, React and react-dom inside and what the SDK
 * loads on demand in chunks of its own. Resolves to the files by URL path, the entry, and the
 * chunks the entry imports statically (the page preloads them, as app bundlers' pages do).
 * @returns {Promise<{ files: Map<string, Uint8Array>, entry: string, preload: string[] }>}
 */
export async function bundleBrowserApp(sdk, echoUrl, { sourcemap = false } = {}) {
  const workDir = mkdtempSync(join(tmpdir(), 'echo-browser-app-'))
  try {
    if (sdk.nodeModulesDir) symlinkSync(sdk.nodeModulesDir, join(workDir, 'node_modules'), 'dir')
    for (const [name, dir] of Object.entries(sdk.linked ?? {})) {
      mkdirSync(join(workDir, 'node_modules'), { recursive: true })
      symlinkSync(dir, join(workDir, 'node_modules', name), 'dir')
    }
    const manifest = { name: 'bench-browser-app', private: true, type: 'module' }
    writeFileSync(join(workDir, 'package.json'), JSON.stringify(manifest))
    writeFileSync(join(workDir, 'app.jsx'), sdk.source?.(echoUrl) ?? appSource(sdk.packageName, sdk.config(echoUrl)))
    const result = await build({
      entryPoints: [join(workDir, 'app.jsx')],
      bundle: true,
      minify: true,
      format: 'esm',
      splitting: true,
      platform: 'browser',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      outdir: join(workDir, 'out'),
      absWorkingDir: workDir,
      preserveSymlinks: Boolean(sdk.nodeModulesDir),
      metafile: true,
      // For a CPU profile's functions to be told apart by source: the build's map (the package's own maps read in).
      sourcemap: sourcemap ? 'external' : false,
      // Short lines, so that a profile's line ticks (it has no columns) tell the sources on a line apart.
      ...(sourcemap ? { lineLimit: 60 } : {}),
      write: false,
      logLevel: 'silent',
    })
    const outputs = result.metafile.outputs
    const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint === 'app.jsx')
    return {
      files: new Map(
        result.outputFiles
          .filter((file) => !file.path.endsWith('.map'))
          .map((file) => [`/${basename(file.path)}`, file.contents]),
      ),
      maps: new Map(
        result.outputFiles
          .filter((file) => file.path.endsWith('.map'))
          .map((file) => [`/${basename(file.path, '.map')}`, file.text]),
      ),
      entry: `/${basename(entry)}`,
      preload: staticImports(outputs, entry).map((path) => `/${basename(path)}`),
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** The chunks `entry` imports statically, transitively. */
function staticImports(outputs, entry) {
  const seen = new Set()
  const visit = (path) => {
    for (const { path: imported, kind } of outputs[path]?.imports ?? []) {
      if (kind !== 'import-statement' || seen.has(imported) || !outputs[imported]) continue
      seen.add(imported)
      visit(imported)
    }
  }
  visit(entry)
  return [...seen]
}

// ---- servers ------------------------------------------------------------------------------------

/** Serves `handler` on a free loopback port until `close()`. */
async function listen(handler) {
  const server = createServer(handler)
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The app's page and chunks, and an empty page on the same origin for each load to start from. */
export function serveApp(app) {
  const head = [
    '<meta charset="utf-8"><title>bench</title><link rel="icon" href="data:,">',
    ...app.preload.map((path) => `<link rel="modulepreload" href="${path}">`),
    `<script type="module" src="${app.entry}"></script>`,
  ].join('')
  const pages = {
    '/': `<!doctype html><html><head>${head}</head><body><div id="root"></div></body></html>`,
    '/blank': '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head></html>',
  }
  return listen((request, response) => {
    const path = new URL(request.url, 'http://localhost').pathname
    const body = pages[path] ?? app.files.get(path)
    if (body === undefined) return response.writeHead(404).end()
    const type = pages[path] ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8'
    const headers = { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' }
    response.writeHead(200, headers).end(body)
  })
}

/**
 * A stand-in for Echo's API: echo-rtk's fixtures (Echo's answers in the live server's shapes) for
 * what either SDK asks once signed in, CORS for any origin, and each request noted with the
 * wall-clock time it arrived.
 */
export async function startEchoStub() {
  const { echoFixtures } = await import('../dist/testing.js')
  const answers = {
    '/api/v1/balance': echoFixtures.balance,
    // echo-rtk asks by POST /api/v1/balance/free, Echo's SDK by GET /api/v1/balance/{appId}/free.
    '/api/v1/balance/free': echoFixtures.freeTierBalance,
    '/api/v1/user': echoFixtures.account,
    '/api/oauth/userinfo': echoFixtures.userinfo,
  }
  /** @type {{ at: number, method: string, path: string, answered: boolean }[]} */
  const requests = []
  const stub = await listen((request, response) => {
    const path = new URL(request.url, 'http://localhost').pathname
    const noted = { at: performance.timeOrigin + performance.now(), method: request.method, path, answered: false }
    requests.push(noted)
    const preflight = request.method === 'OPTIONS'
    const answer = answers[path.replace(`/balance/${APP_ID}/free`, '/balance/free')]
    const body = preflight ? '' : JSON.stringify(answer ?? { message: 'Not found' })
    const headers = {
      'access-control-allow-origin': request.headers.origin ?? '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    }
    request.resume()
    request.once('end', () => {
      response.writeHead(preflight ? 204 : answer ? 200 : 404, headers).end(body)
      noted.answered = true
    })
  })
  return { ...stub, requests }
}

// ---- one load -----------------------------------------------------------------------------------

/**
 * Runs in the page before any script of its own: stores the signed-in user, then watches for the
 * name. `paintedAt` is when the first task after the frame that drew the name runs (the name in
 * the DOM, then the next animation frame, then a message task, which Chromium runs once that
 * frame's style, layout and paint are done); it is also when the page tells the bench.
 */
function pageScript({ storageKey, storedUser, userName, elementId, binding }) {
  if (location.pathname !== '/') return
  localStorage.setItem(storageKey, storedUser)
  const bench = (window.__bench = { elements: [] })
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-signed-in]')?.textContent?.includes(userName)) return
    observer.disconnect()
    bench.shownAt = performance.now()
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        bench.paintedAt = performance.now()
        window[binding]()
      }
      channel.port2.postMessage(null)
    })
  })
  observer.observe(document, { childList: true, subtree: true, characterData: true })
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.identifier === elementId) bench.elements.push(entry.renderTime)
  }).observe({ type: 'element', buffered: true })
}

/** The user oidc-client-ts stores after a sign-in, where both SDKs look for it (bench/dom.mjs). */
function storedSession(echoUrl) {
  const stored = {}
  const storage = { setItem: (key, value) => Object.assign(stored, { key, value }) }
  storeSignedInUser(storage, { apiUrl: echoUrl, appId: APP_ID, lifetimeS: SESSION_LIFETIME_S })
  return stored
}

const scriptSeconds = (metrics) => metrics.metrics.find((m) => m.name === 'ScriptDuration')?.value ?? Number.NaN
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const wallNow = () => performance.timeOrigin + performance.now()

function withTimeout(promise, ms, what) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${ms} ms in vain for ${what}`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * One load of the app at `appUrl`, in a context of its own at CPU throttling `rate`. The context
 * first opens an empty page on the app's origin, where throttling and the metrics are switched on,
 * so that the timed navigation finds them on and the renderer already started.
 */
export async function loadOnce(browser, { appUrl, stub, rate, profile = false }) {
  const context = await browser.newContext()
  try {
    const session = storedSession(stub.url)
    const userName = JSON.parse(session.value).profile.name
    await context.addInitScript(pageScript, {
      storageKey: session.key,
      storedUser: session.value,
      userName,
      elementId: ELEMENT_ID,
      binding: BINDING,
    })
    const page = await context.newPage()
    const problems = []
    page.on('pageerror', (error) => problems.push(error.message))
    const cdp = await context.newCDPSession(page)
    let signedIn
    const metricsAtPaint = new Promise((resolve) => (signedIn = resolve))
    // Script time is CDP's ScriptDuration, read as soon as the page reports the paint, before it runs
    // much else. A trace per load would place the cut exactly, but tracing slows the page it times;
    // checked on a few loads, the trace's script events before the paint came within 10% of this.
    await page.exposeFunction(BINDING, () => signedIn(cdp.send('Performance.getMetrics')))
    await page.goto(`${appUrl}/blank`)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate })
    await cdp.send('Performance.enable')
    const before = await cdp.send('Performance.getMetrics')
    if (profile) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US })
      await cdp.send('Profiler.start')
    }
    const firstRequest = stub.requests.length
    await page.goto(`${appUrl}/`, { waitUntil: 'commit' })
    const shown = withTimeout(metricsAtPaint, SIGNED_IN_TIMEOUT_MS, `${appUrl} to show ${userName}`)
    const atPaint = await shown.catch((error) => {
      const thrown = problems.length > 0 ? ` (the page threw: ${problems.join('; ')})` : ''
      throw new Error(`${error.message}${thrown}`)
    })
    const profiled = profile ? (await cdp.send('Profiler.stop')).profile : undefined
    await waitForQuiet(stub.requests, firstRequest, wallNow())
    const seen = await page.evaluate(() => ({
      bench: window.__bench,
      timeOrigin: performance.timeOrigin,
      resources: performance.getEntriesByType('resource').map(({ name, startTime }) => ({ name, startTime })),
    }))
    const scriptMs = (scriptSeconds(atPaint) - scriptSeconds(before)) * 1000
    const summary = summarizeLoad(seen, stub, stub.requests.slice(firstRequest), scriptMs)
    return profiled === undefined ? summary : { ...summary, profile: profiled, timeOrigin: seen.timeOrigin }
  } finally {
    await context.close()
  }
}

/**
 * Waits until every request to the stub has been answered and none has arrived for `QUIET_MS`, the
 * paint (`paintedAt`, wall clock) included: requests an SDK defers until after the paint come late.
 */
async function waitForQuiet(requests, from, paintedAt) {
  const deadline = Date.now() + QUIET_TIMEOUT_MS
  for (;;) {
    const mine = requests.slice(from)
    if (mine.every((r) => r.answered) && wallNow() - Math.max(paintedAt, mine.at(-1)?.at ?? 0) >= QUIET_MS) return
    if (Date.now() > deadline) throw new Error(`the stub still had requests coming after ${QUIET_TIMEOUT_MS} ms`)
    await sleep(50)
  }
}

/**
 * The paint is the name's Element Timing entry: Chromium's own record of when the element's text
 * was first presented (rounded to 4 ms here), which needs no guess about when a frame is done; the
 * page's frame-then-task estimate stands in only if no entry came. "Made before" is a resource's
 * start (when fetch() was called) before the paint, on the page's clock; "reached the stub" is its
 * arrival there, on this process's clock, moved to the page's by its time origin.
 */
function summarizeLoad({ bench, timeOrigin, resources }, stub, stubRequests, scriptMs) {
  const element = bench.elements.find((renderTime) => renderTime > 0 && renderTime >= bench.shownAt)
  const paintMs = element ?? bench.paintedAt
  const toStub = resources.filter((r) => r.name.startsWith(`${stub.url}/`))
  const answeredByStub = stubRequests.filter((r) => r.method !== 'OPTIONS')
  if (toStub.length !== answeredByStub.length) {
    throw new Error(`the page timed ${toStub.length} requests to the stub, which answered ${answeredByStub.length}`)
  }
  const pathOf = (url) => new URL(url).pathname.replace(APP_ID, '{appId}')
  return {
    paintMs,
    byElementTiming: element !== undefined,
    scriptMs,
    // The page itself, then every resource it started before the paint.
    madeBefore: 1 + resources.filter((r) => r.startTime < paintMs).length,
    echoMadeBefore: toStub.filter((r) => r.startTime < paintMs).map((r) => pathOf(r.name)),
    echoArrivedBefore: stubRequests.filter((r) => r.at - timeOrigin < paintMs).length,
  }
}

// ---- the whole measure --------------------------------------------------------------------------

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** One SDK's loads at one rate: medians, and the most requests to Echo before the paint in any load. */
function summarize(loads) {
  const counts = loads.map((l) => l.echoMadeBefore.length)
  return {
    loads: loads.length,
    paintMs: median(loads.map((l) => l.paintMs)),
    paintsMs: loads.map((l) => l.paintMs),
    byElementTiming: loads.filter((l) => l.byElementTiming).length,
    scriptMs: median(loads.map((l) => l.scriptMs)),
    madeBefore: median(loads.map((l) => l.madeBefore)),
    echoMadeBefore: median(counts),
    maxEchoMadeBefore: Math.max(...counts),
    echoPathsBefore: [...new Set(loads.flatMap((l) => l.echoMadeBefore))].sort(),
    echoArrivedBefore: median(loads.map((l) => l.echoArrivedBefore)),
  }
}

/** A load that fails is tried once more (and said so); a second failure ends the measure. */
async function loadWithRetry(browser, options, log) {
  try {
    return await loadOnce(browser, options)
  } catch (error) {
    log(`  a load of ${options.appUrl} failed, tried again: ${error instanceof Error ? error.message : String(error)}`)
    return loadOnce(browser, options)
  }
}

/**
 * Each app (echo-rtk's, Echo's SDK's, React alone), `loads` times at every rate, in turns. Every server
 * and the browser are closed however it ends.
 * @param {{ loads?: number, rates?: number[], log?: (line: string) => void }} [options]
 */
export async function measureBrowserStartUp({ loads = LOADS, rates = RATES, log = () => {} } = {}) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM} (Debian: apt-get install chromium; or set CHROMIUM_PATH)`)
  }
  const { chromium } = await import('playwright-core')
  const closers = []
  try {
    const stub = await startEchoStub()
    closers.push(stub.close)
    const sites = {}
    for (const [side, sdk] of Object.entries(SDKS)) {
      const site = await serveApp(await bundleBrowserApp(sdk, stub.url))
      closers.push(site.close)
      sites[side] = site.url
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
    closers.push(() => browser.close())
    const byRate = {}
    for (const rate of rates) {
      const results = { ours: [], theirs: [], react: [] }
      for (let load = 0; load < WARM_UP_LOADS + loads; load += 1) {
        for (const side of Object.keys(results)) {
          const result = await loadWithRetry(browser, { appUrl: sites[side], stub, rate }, log)
          if (load >= WARM_UP_LOADS) results[side].push(result)
        }
        const done = load + 1 - WARM_UP_LOADS
        if (done > 0 && done % 5 === 0) log(`  ${rate}× CPU throttling: ${done} of ${loads} loads each`)
      }
      byRate[rate] = Object.fromEntries(
        Object.entries(results).map(([side, sideLoads]) => [side, summarize(sideLoads)]),
      )
    }
    return { chromium: browser.version(), loads, byRate }
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {})
  }
}
