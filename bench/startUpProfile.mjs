// Where the start-up time goes: Chromium's CPU profile (V8's sampling profiler, every 100 µs) of the
// minimal app's loads with a stored session, at 4× CPU throttling, from the navigation to the signed-in
// paint, beside React alone painting the same name. Each sample's function is mapped through the build's
// source map (the package's own maps read in) to the file it was written in, and counted for the package,
// or for echo-rtk's folder, that file belongs to. Idle time (the page waiting for the network or a frame)
// is not counted: what is left is the main thread's work before the paint.
import { existsSync } from 'node:fs'

import { LEAST_UPPER_BOUND, originalPositionFor, TraceMap } from '@jridgewell/trace-mapping'

import {
  bundleBrowserApp,
  CHROMIUM,
  CHROMIUM_ARGS,
  loadOnce,
  SDKS,
  serveApp,
  startEchoStub,
} from './browserStartUp.mjs'

export const PROFILED_LOADS = 10
export const PROFILED_RATE = 4

/** What a profile's own nodes without a script are. */
const V8_NODES = {
  '(program)': "the browser's own work (HTML, style, layout, paint, compiling scripts)",
  '(garbage collector)': 'garbage collection',
  '(root)': "the browser's own work (HTML, style, layout, paint, compiling scripts)",
}

/** Which part of the app a source file belongs to: a package by name, or echo-rtk's folder. */
export function partOf(source) {
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1]
  if (packageName === undefined || packageName === 'echo-rtk') {
    const own = /(?:^|\/)src\/((?:[^/]+\/)*)[^/]+$/.exec(source)
    if (own !== null) return `echo-rtk: src/${own[1]}`
    return /app\.jsx$/.test(source) ? 'the app itself' : `other (${source})`
  }
  if (['react', 'react-dom', 'scheduler'].includes(packageName)) return 'React (react, react-dom, scheduler)'
  if (['@reduxjs/toolkit', 'redux', 'immer', 'reselect', 'redux-thunk'].includes(packageName))
    return 'Redux Toolkit (with redux, immer, reselect)'
  return packageName
}

/**
 * A profile's busy time, in ms, by part: each sample's time (until the next sample) given to the function it
 * was in, and within a function to its lines by the profile's line ticks, each line found in its script's
 * source map (a function without ticks counts where it starts). A built-in function (setTimeout,
 * createElement) counts for the script that called it.
 */
export function busyTimeByPart(profile, mapsByPath) {
  const traceMaps = new Map()
  const traceMapOf = (path) => {
    if (!traceMaps.has(path)) traceMaps.set(path, new TraceMap(mapsByPath.get(path)))
    return traceMaps.get(path)
  }
  const sourceAt = (path, line, column) => {
    const at = { line, column, bias: LEAST_UPPER_BOUND }
    const source = originalPositionFor(traceMapOf(path), at).source
    return source === null ? `unmapped (${path})` : partOf(source)
  }
  const selfMs = new Map()
  profile.samples.forEach((nodeId, index) => {
    selfMs.set(nodeId, (selfMs.get(nodeId) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000)
  })
  /** Each node's parts, with their shares of its time: `[[part, share]]`; `null` for idle. */
  const sharesOf = new Map()
  const parentOf = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node])))
  // Parents first, so that a built-in's caller is placed before it.
  const byDepth = [...profile.nodes].sort((a, b) => depthOf(a, parentOf) - depthOf(b, parentOf))
  for (const node of byDepth) {
    const { url, functionName, lineNumber, columnNumber } = node.callFrame
    const path = URL.canParse(url) ? new URL(url).pathname : url
    if (functionName === '(idle)') sharesOf.set(node.id, null)
    else if (url === '') {
      const caller = parentOf.get(node.id)
      const own = V8_NODES[functionName]
      sharesOf.set(
        node.id,
        own ? [[own, 1]] : (caller && sharesOf.get(caller.id)) || [["the browser's own scripts", 1]],
      )
    } else if (!mapsByPath.has(path))
      // The page's own inline script and the bench's probe, or the browser's built-in scripts (v8/LoadTimes).
      sharesOf.set(node.id, [[/^https?:/.test(url) ? 'the page and the bench probe' : "the browser's own scripts", 1]])
    else if (node.positionTicks?.length) {
      const ticks = node.positionTicks.reduce((sum, { ticks }) => sum + ticks, 0)
      sharesOf.set(
        node.id,
        node.positionTicks.map(({ line, ticks: onLine }) => [sourceAt(path, line, 0), onLine / ticks]),
      )
    } else sharesOf.set(node.id, [[sourceAt(path, lineNumber + 1, columnNumber), 1]])
  }
  // esbuild's own wrappers (__commonJS, __esm) map to no source: their time (compiling and running the module they
  // wrap) counts for the part of the call under them that took longest. Children first.
  const totalMs = new Map()
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  for (const node of byDepth.toReversed()) {
    const children = (node.children ?? []).map((child) => byId.get(child))
    totalMs.set(node.id, (selfMs.get(node.id) ?? 0) + children.reduce((sum, child) => sum + totalMs.get(child.id), 0))
    const shares = sharesOf.get(node.id)
    if (!shares?.some(([part]) => part.startsWith('unmapped'))) continue
    const longest = children.toSorted((a, b) => totalMs.get(b.id) - totalMs.get(a.id))[0]
    const under = longest && sharesOf.get(longest.id)
    if (!under) continue
    sharesOf.set(
      node.id,
      shares.flatMap(([part, share]) =>
        part.startsWith('unmapped') ? under.map(([child, childShare]) => [child, share * childShare]) : [[part, share]],
      ),
    )
  }
  const ms = new Map()
  for (const [nodeId, nodeMs] of selfMs) {
    for (const [part, share] of sharesOf.get(nodeId) ?? []) ms.set(part, (ms.get(part) ?? 0) + nodeMs * share)
  }
  return ms
}

/** How far `node` is from the profile's root. */
function depthOf(node, parentOf) {
  let depth = 0
  for (let at = parentOf.get(node.id); at !== undefined; at = parentOf.get(at.id)) depth += 1
  return depth
}

/**
 * `loads` profiled loads of echo-rtk's minimal app and of React alone, in turns (after one warm-up load each):
 * the mean busy time per load by part, and the median paint.
 */
export async function profileStartUp({ loads = PROFILED_LOADS, rate = PROFILED_RATE, log = () => {} } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM} (Debian: apt-get install chromium)`)
  const { chromium } = await import('playwright-core')
  const closers = []
  try {
    const stub = await startEchoStub()
    closers.push(stub.close)
    const apps = {}
    for (const side of ['ours', 'react']) {
      const app = await bundleBrowserApp(SDKS[side], stub.url, { sourcemap: true })
      const site = await serveApp(app)
      closers.push(site.close)
      apps[side] = { url: site.url, maps: app.maps }
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
    closers.push(() => browser.close())
    const totals = { ours: new Map(), react: new Map() }
    const paints = { ours: [], react: [] }
    for (let load = -1; load < loads; load += 1) {
      for (const side of ['ours', 'react']) {
        const result = await loadOnce(browser, { appUrl: apps[side].url, stub, rate, profile: true })
        if (load < 0) continue
        paints[side].push(result.paintMs)
        for (const [part, ms] of busyTimeByPart(result.profile, apps[side].maps))
          totals[side].set(part, (totals[side].get(part) ?? 0) + ms)
      }
      if (load >= 0 && (load + 1) % 5 === 0) log(`  profiled ${load + 1} of ${loads} loads each`)
    }
    const perLoad = (side) => new Map([...totals[side]].map(([part, ms]) => [part, ms / loads]))
    const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1]
    return {
      chromium: browser.version(),
      loads,
      rate,
      ours: { busyMs: perLoad('ours'), paintMs: median(paints.ours) },
      react: { busyMs: perLoad('react'), paintMs: median(paints.react) },
    }
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {})
  }
}

/** The profile as a markdown table: each part's time per load, echo-rtk's app beside React alone. */
export function profileTable({ ours, react }) {
  const parts = [...new Set([...ours.busyMs.keys(), ...react.busyMs.keys()])].sort(
    (a, b) => (ours.busyMs.get(b) ?? 0) - (ours.busyMs.get(a) ?? 0),
  )
  const ms = (value) => (value === undefined || value < 0.05 ? '-' : `${value.toFixed(1)} ms`)
  const sum = (busy) => [...busy.values()].reduce((total, value) => total + value, 0)
  return [
    '| where (by source file) | echo-rtk app | React alone |',
    '| --- | --- | --- |',
    ...parts.map((part) => `| ${part} | ${ms(ours.busyMs.get(part))} | ${ms(react.busyMs.get(part))} |`),
    `| **busy in all** | **${ms(sum(ours.busyMs))}** | **${ms(sum(react.busyMs))}** |`,
    `| the signed-in paint (median) | ${ms(ours.paintMs)} | ${ms(react.paintMs)} |`,
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await profileStartUp({ log: console.log })
  console.log(`Chromium ${result.chromium}, ${result.loads} loads each at ${result.rate}× CPU throttling\n`)
  console.log(profileTable(result))
}
