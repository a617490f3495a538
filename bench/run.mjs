// `npm run bench`: measures echo-rtk against its budgets (docs/performance.md) and against Echo's own React
// SDK (@merit-systems/echo-react-sdk 1.0.39, installed in bench/ by this script), and writes one
// table to bench/results.md. Every figure is a ratio, a difference or a count taken in this same
// run, never a fixed time. Exits non-zero when a budget is missed or a measure of ours fails.
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'

import { LOADS as BROWSER_LOADS, measureBrowserStartUp } from './browserStartUp.mjs'
import { PROFILED_LOADS, PROFILED_RATE, profileStartUp, profileTable } from './startUpProfile.mjs'
import { BUDGET, formatBreakdown, measureOurBundle, measureTheirBundle } from './bundleSize.mjs'
import { ECHO_REACT_SDK, ECHO_TYPESCRIPT_SDK, ensureEchoSdkInstalled, installedVersion } from './echoSdk.mjs'
import { measureFetchOverhead, measureSessionFetchOverhead } from './fetchOverhead.mjs'
import { measureRefreshStorm } from './refreshStorm.mjs'
import { runInChild } from './runInChild.mjs'
import { measureServerProxyOverhead } from './serverProxy.mjs'
import { measureServerRouteOverhead } from './serverRoute.mjs'
import { startLoopbackServer } from './startServer.mjs'
import { measureStreamLatency } from './streamLatency.mjs'

/** Runs one measure; a failure becomes part of the results instead of ending the run. */
async function attempt(what, measure) {
  console.log(`Measuring ${what}...`)
  try {
    return { value: await measure() }
  } catch (error) {
    console.error(`  failed: ${error instanceof Error ? error.message : String(error)}`)
    return { error: (error instanceof Error ? error.message : String(error)).split('\n')[0] }
  }
}

const START_UP_ROUNDS = 3

/** One start-up result from several processes' mounts: the median of all of them, the worst of the rest. */
function pooledStartUp(rounds) {
  const failedRound = rounds.find((round) => round.error)
  if (failedRound) return failedRound
  const results = rounds.map((round) => round.value)
  const times = results.flatMap((r) => r.timesMs).sort((a, b) => a - b)
  return {
    value: {
      mounts: times.length,
      medianMs: times[times.length >> 1],
      maxRequestsBefore: Math.max(...results.map((r) => r.maxRequestsBefore)),
      requestsBefore: [...new Set(results.flatMap((r) => r.requestsBefore))],
      maxAnsweredBefore: Math.max(...results.map((r) => r.maxAnsweredBefore)),
      maxCommitsBefore: Math.max(...results.map((r) => r.maxCommitsBefore)),
    },
  }
}

await ensureEchoSdkInstalled()
const theirVersion = installedVersion(ECHO_REACT_SDK)
const theirClientVersion = installedVersion(ECHO_TYPESCRIPT_SDK)

const bundle = {
  ours: await attempt('the bundle of the minimal app on echo-rtk', measureOurBundle),
  oursServerMode: await attempt('the bundle of the same app on echo-rtk in server mode', () =>
    measureOurBundle({ session: 'server' }),
  ),
  theirs: await attempt(`the bundle of the same app on ${ECHO_REACT_SDK}`, measureTheirBundle),
}

const server = await startLoopbackServer()
const m = {}
try {
  m.overhead = await attempt('the authorized fetch against bare fetch (10,000 requests each)', () =>
    measureFetchOverhead(server.url),
  )
  m.sessionOverhead = await attempt("useEchoFetch()'s session fetch against bare fetch (10,000 requests each)", () =>
    measureSessionFetchOverhead(server.url),
  )
  m.serverRoute = await attempt(
    "echo-rtk/server's route against a route passing the token itself (6,000 requests each)",
    () => measureServerRouteOverhead(server.url),
  )
  m.serverProxy = await attempt(
    "a model call through the server-held session's proxy against one straight to the router (the router taking 100 ms)",
    () => measureServerProxyOverhead(server.url),
  )
  m.storm = await attempt('the refresh storm on our client (1,000 concurrent calls, expired token)', () =>
    measureRefreshStorm(server.url),
  )
  m.theirStorm = await attempt(`the refresh storm on ${ECHO_TYPESCRIPT_SDK}'s EchoClient`, async () => {
    const { measureTheirRefreshStorm } = await import('./theirRefreshStorm.mjs')
    return measureTheirRefreshStorm(server.url)
  })
  // Start-up is a few milliseconds, so the machine's drift between two processes would decide it:
  // both SDKs run in turns, each in START_UP_ROUNDS processes, and each side's mounts are pooled.
  const startUps = { ours: [], theirs: [] }
  for (let round = 1; round <= START_UP_ROUNDS; round += 1) {
    const what = `start-up with a stored session (jsdom), round ${round} of ${START_UP_ROUNDS}`
    startUps.ours.push(await attempt(`${what}, echo-rtk`, () => runInChild('echo-rtk', 'startUp', server.url)))
    startUps.theirs.push(
      await attempt(`${what}, Echo's SDK`, () => runInChild('echo-react-sdk', 'startUp', server.url)),
    )
  }
  m.startUp = pooledStartUp(startUps.ours)
  m.theirStartUp = pooledStartUp(startUps.theirs)
  for (const [key, scenario, what] of [
    ['renders', 'renders', 're-renders during one silent refresh (jsdom)'],
    ['reactStorm', 'storm', 'the refresh storm through the React API (jsdom)'],
  ]) {
    m[key] = await attempt(`${what}, echo-rtk`, () => runInChild('echo-rtk', scenario, server.url))
    m[`their${key[0].toUpperCase()}${key.slice(1)}`] = await attempt(`${what}, Echo's SDK`, () =>
      runInChild('echo-react-sdk', scenario, server.url),
    )
  }
} finally {
  await server.stop()
}
m.stream = await attempt(
  'streaming latency: socket write to event, router stream against the raw body',
  measureStreamLatency,
)
const inChromium = `start-up in Chromium, ${BROWSER_LOADS} loads per SDK in turns at 1× and 4× CPU throttling`
m.browserStartUp = await attempt(inChromium, () => measureBrowserStartUp({ log: console.log }))
m.startUpProfile = await attempt(
  `where the start-up time goes: a CPU profile of ${PROFILED_LOADS} loads each at ${PROFILED_RATE}× CPU throttling`,
  () => profileStartUp({ log: console.log }),
)

// ---- the table ----------------------------------------------------------------------------------

const bytes = (n) => `${n.toLocaleString('en-US')} B`
const times = (ours, theirs) => (theirs > 0 ? `${(ours / theirs).toFixed(2)}×` : '-')
const failed = (result) => `not measured: ${result.error}`
const stormBrief = (s) =>
  `${s.tokenCalls} token call${s.tokenCalls === 1 ? '' : 's'}, ${s.succeeded.toLocaleString('en-US')} succeeded`
const stormText = (s) =>
  `${s.tokenCalls} token call${s.tokenCalls === 1 ? '' : 's'}, ${s.succeeded.toLocaleString('en-US')} succeeded, ${s.failed.toLocaleString('en-US')} failed, ` +
  `${s.rejectedByServer.toLocaleString('en-US')} 401s, ${s.wallMs.toFixed(0)} ms`

/**
 * A row comparing with Echo's SDK; `met` undefined where docs/performance.md sets no budget. A row
 * with `format.short` is in the summary too, each side told by `format.brief` (or as in full).
 */
function row(what, ours, theirs, format) {
  const cell = (result, full) => (result.error ? failed(result) : (format.brief ?? full)(result.value))
  const summary = format.short && {
    short: format.short,
    oursBrief: cell(ours, format.ours),
    theirsBrief: cell(theirs, format.theirs),
    budgetBrief: format.budgetBrief ?? format.budget ?? '-',
  }
  return { ...fullRow(what, ours, theirs, format), summary }
}

function fullRow(what, ours, theirs, format) {
  if (ours.error || theirs.error) {
    return {
      what,
      ours: ours.error ? failed(ours) : format.ours(ours.value),
      theirs: theirs.error ? failed(theirs) : format.theirs(theirs.value),
      ratio: '-',
      budget: format.budget ?? '-',
      met: format.budget ? (ours.error ? false : format.met(ours.value)) : undefined,
    }
  }
  return {
    what,
    ours: format.ours(ours.value),
    theirs: format.theirs(theirs.value),
    ratio: format.ratio?.(ours.value, theirs.value) ?? '-',
    budget: format.budget ?? '-',
    met: format.budget ? format.met(ours.value, theirs.value) : undefined,
  }
}

const sizeRow = (what, pick, budget, short, ours = bundle.ours) =>
  row(what, ours, bundle.theirs, {
    short,
    budgetBrief: budget ? `≤ ${bytes(budget)}` : undefined,
    ours: (b) => bytes(pick(b)),
    theirs: (b) => bytes(pick(b)),
    ratio: (o, t) => times(pick(o), pick(t)),
    budget: budget ? `at most ${bytes(budget)}` : undefined,
    met: (b) => pick(b) <= budget,
  })

/** What start-up in Chromium must reach at 4× CPU throttling. */
const BROWSER_BUDGET = { ratio: 0.45, text: "at most 0.45× Echo's SDK, no request to Echo before the signed-in paint" }
const jsdomStartUp = oneLine`Start-up (jsdom) with a valid stored session: mount to the first commit showing it
  signed in, median of ${m.startUp.value?.mounts ?? 45} mounts`
const jsdomStartUpRequests = oneLine`Start-up (jsdom): commits before it shows signed in; requests sent (answered)
  before that commit`

const rows = [
  sizeRow(
    "Bundle, a returning signed-in user's first load, gzip -9",
    (b) => b.total.gzip,
    BUDGET.firstLoadGzip,
    'Bundle, first load (gzip)',
  ),
  sizeRow(
    'Bundle, the whole app with the sign-in chunk, gzip -9',
    (b) => b.total.whole.gzip,
    BUDGET.wholeGzip,
    'Bundle, whole app (gzip)',
  ),
  sizeRow(
    "Bundle: the SDK's own code in the first load, every dependency external, gzip -9",
    (b) => b.own.gzip,
    BUDGET.ownFirstLoadGzip,
    'Bundle, own code in the first load',
  ),
  sizeRow(
    'Bundle in server mode (the same app, session: server): the first load, gzip -9',
    (b) => b.total.gzip,
    undefined,
    'Bundle, server mode, first load (gzip)',
    bundle.oursServerMode,
  ),
  sizeRow(
    'Bundle in server mode: the whole app (no browser session, no sign-in chunk), gzip -9',
    (b) => b.total.whole.gzip,
    undefined,
    'Bundle, server mode, whole app (gzip)',
    bundle.oursServerMode,
  ),
  sizeRow('Bundle, first load, minified', (b) => b.total.minified),
  sizeRow('Bundle, first load, brotli', (b) => b.total.brotli),
  row('Refresh storm, client: 1,000 concurrent calls, expired token, 401s spread over 60 ms', m.storm, m.theirStorm, {
    short: 'Refresh storm, client: 1,000 calls',
    brief: stormBrief,
    budgetBrief: '1 token call, all succeed',
    ours: stormText,
    theirs: stormText,
    ratio: (o, t) => `${times(o.tokenCalls, t.tokenCalls)} token calls`,
    budget: 'exactly 1 token call and 1,000 successes',
    met: (s) => s.tokenCalls === 1 && s.succeeded === s.calls,
  }),
  row(
    "Refresh storm through the React API: 1,000 concurrent calls after the server expired the session's token",
    m.reactStorm,
    m.theirReactStorm,
    {
      short: 'Refresh storm, React API: 1,000 calls',
      brief: stormBrief,
      budgetBrief: '1 token call, all succeed',
      ours: (s) => `${stormText(s)} (${s.what})`,
      theirs: (s) => `${stormText(s)} (${s.what})`,
      ratio: (o, t) => `${times(o.tokenCalls, t.tokenCalls)} token calls`,
      budget: 'exactly 1 token call and 1,000 successes',
      met: (s) => s.tokenCalls === 1 && s.succeeded === s.calls,
    },
  ),
  row('Re-renders during one silent token refresh: a component showing only the balance', m.renders, m.theirRenders, {
    short: 'Re-renders of a balance during a refresh',
    ours: (r) => `${r.balance}`,
    theirs: (r) => `${r.balance}`,
    budget: '0',
    met: (r) => r.balance === 0 && r.tokenCalls === 1,
  }),
  row('Re-renders during one silent token refresh: a useEcho() consumer showing the name', m.renders, m.theirRenders, {
    ours: (r) => `${r.useEcho}`,
    theirs: (r) => `${r.useEcho}`,
  }),
  browserStartUpRow(4, BROWSER_BUDGET),
  overReactAloneRow(4),
  browserStartUpRow(1),
  row(jsdomStartUp, m.startUp, m.theirStartUp, {
    short: 'Start-up, jsdom',
    budgetBrief: "≤ 1.0× Echo's SDK",
    ours: (s) => `${s.medianMs.toFixed(2)} ms`,
    theirs: (s) => `${s.medianMs.toFixed(2)} ms`,
    ratio: (o, t) => times(o.medianMs, t.medianMs),
    budget: "at most 1.0× Echo's SDK",
    met: (o, t) => t !== undefined && o.medianMs <= t.medianMs,
  }),
  row(jsdomStartUpRequests, m.startUp, m.theirStartUp, {
    ours: startUpText,
    theirs: startUpText,
    budget: 'signed in on the first render, no request sent before it',
    met: (s) => s.maxCommitsBefore === 0 && s.maxRequestsBefore === 0,
  }),
  baselineRow('Authorized fetch overhead: median of 10,000 loopback requests', m.overhead, {
    short: 'Authorized fetch overhead',
    against: 'bare fetch',
    ours: (o) => `${o.echoMedianUs.toFixed(1)} µs`,
    baseline: (o) => `bare fetch: ${o.bareMedianUs.toFixed(1)} µs`,
    ratio: (o) => `${o.ratio.toFixed(3)}×`,
    budget: 'at most 1.05×',
    met: (o) => o.ratio <= 1.05,
  }),
  baselineRow(
    'useEchoFetch() overhead (the session fetch: token, origin guard, 402 watch, balance follow-up): median of 10,000 loopback requests',
    m.sessionOverhead,
    {
      short: 'useEchoFetch() overhead',
      against: 'bare fetch',
      ours: (o) => `${o.echoMedianUs.toFixed(1)} µs`,
      baseline: (o) => `bare fetch: ${o.bareMedianUs.toFixed(1)} µs`,
      ratio: (o) => `${o.ratio.toFixed(3)}×`,
      budget: 'at most 1.05×',
      met: (o) => o.ratio <= 1.05,
    },
  ),
  baselineRow(
    `echo-rtk/server: a route through echo.route + userFrom (the token verified once, then from the kept verdict) against one passing the token to the router itself: median of ${(m.serverRoute.value?.requests ?? 6000).toLocaleString('en-US')} loopback requests`,
    m.serverRoute,
    {
      short: 'echo-rtk/server route overhead',
      against: 'passing the token by hand',
      ours: (o) => `${o.routedMedianUs.toFixed(1)} µs`,
      baseline: (o) => `by hand: ${o.directMedianUs.toFixed(1)} µs`,
      ratio: (o) => `${o.ratio.toFixed(3)}×`,
      budget: 'at most 1.05× (issue 23)',
      met: (o) => o.ratio <= 1.05,
    },
  ),
  baselineRow(
    `Server mode: a model call through the app's server (echo.handler: the cookie opened, the token added, the answer streamed) against the page calling the router with the token, the router taking 100 ms an answer; median of ${(m.serverProxy.value?.requests ?? 150).toLocaleString('en-US')} loopback calls each`,
    m.serverProxy,
    {
      short: 'Server mode, a model call through the proxy',
      against: 'the page calling the router itself',
      ours: (o) =>
        `${(o.proxiedMedianUs / 1000).toFixed(1)} ms (a bare proxy hop: ${(o.bareMedianUs / 1000).toFixed(1)} ms; the session's own work: ${(o.sessionShareUs / 1000).toFixed(1)} ms)`,
      baseline: (o) => `straight to the router: ${(o.directMedianUs / 1000).toFixed(1)} ms`,
      ratio: (o) => `${o.ratio.toFixed(3)}×`,
      budget: 'at most 1.10×',
      met: (o) => o.ratio <= 1.1,
    },
  ),
  baselineRow(
    `Streaming latency: socket write to event in the caller's loop, median of ${m.stream.value?.events ?? 300} SSE events`,
    m.stream,
    {
      short: 'Streaming latency over the raw stream',
      against: 'per SSE event',
      ours: (s) => `${s.echoMedianUs.toFixed(0)} µs`,
      baseline: (s) => `raw body bytes: ${s.rawMedianUs.toFixed(0)} µs`,
      ratio: (s) => `${s.extraUs >= 0 ? '+' : ''}${s.extraUs.toFixed(0)} µs`,
      budget: 'within 1 ms (1,000 µs) of the raw stream',
      met: (s) => s.extraUs <= 1000,
    },
  ),
]

/** A label written over several lines (to keep them short), read as one. */
function oneLine(strings, ...values) {
  const text = strings.reduce((joined, piece, index) => `${joined}${values[index - 1]}${piece}`)
  return text.replace(/\s*\n\s*/g, ' ')
}

/** One rate's loads of both SDKs; `budget` only where one is set. */
function browserStartUpRow(rate, budget) {
  const result = m.browserStartUp
  const at = (side) => (result.error ? result : { value: result.value.byRate[rate][side] })
  const phone = rate === 4 ? ' (about a mid-range phone)' : ''
  const loads = result.value?.loads ?? BROWSER_LOADS
  const what = oneLine`Start-up in Chromium at ${rate}× CPU throttling${phone}, valid stored session: navigation
    start to the first paint showing the user's name; script run before it; requests made before it; median of
    ${loads} loads`
  return row(what, at('ours'), at('theirs'), {
    short: rate === 4 ? 'Start-up, Chromium at 4× throttling' : undefined,
    brief: (s) => `${s.paintMs.toFixed(0)} ms; ${s.maxEchoMadeBefore} requests to Echo before the paint`,
    budgetBrief: budget && `≤ ${budget.ratio}× Echo's SDK, 0 requests`,
    ours: browserStartUpText,
    theirs: browserStartUpText,
    ratio: (o, t) => times(o.paintMs, t.paintMs),
    budget: budget?.text,
    met: (o, t) => t !== undefined && o.paintMs <= budget.ratio * t.paintMs && o.maxEchoMadeBefore === 0,
  })
}

/** How much later than React alone (the same page, no SDK) each SDK's page shows the name. */
function overReactAloneRow(rate) {
  const result = m.browserStartUp
  const at = (side) => {
    if (result.error) return result
    const { [side]: sdk, react } = result.value.byRate[rate]
    return { value: { addedMs: sdk.paintMs - react.paintMs, reactMs: react.paintMs } }
  }
  const added = (s) => `+${s.addedMs.toFixed(0)} ms`
  const what = oneLine`Start-up in Chromium at ${rate}× CPU throttling: how much later the name is painted than on
    the same page with React alone (no SDK, the name read from storage)`
  return row(what, at('ours'), at('theirs'), {
    short: `Start-up, Chromium at ${rate}×: time added to React alone`,
    ours: (s) => `${added(s)} (React alone: ${s.reactMs.toFixed(0)} ms)`,
    theirs: (s) => `${added(s)} (React alone: ${s.reactMs.toFixed(0)} ms)`,
    brief: added,
    ratio: (o, t) => times(o.addedMs, t.addedMs),
  })
}

function browserStartUpText(s) {
  const most = s.maxEchoMadeBefore === s.echoMadeBefore ? '' : ` (${s.maxEchoMadeBefore} in one load)`
  const paths = s.echoPathsBefore.length > 0 ? `: ${s.echoPathsBefore.join(', ')}` : ''
  const requests = `${s.echoMadeBefore} requests to Echo${most}${paths} (${s.echoArrivedBefore} had reached it)`
  return `${s.paintMs.toFixed(0)} ms; ${s.scriptMs.toFixed(0)} ms of script; ${requests}, ${s.madeBefore} in all`
}

function startUpText(s) {
  const requests =
    s.maxRequestsBefore === 0
      ? '0 requests'
      : `${s.maxRequestsBefore} requests (${s.maxAnsweredBefore} answered): ${s.requestsBefore.join(', ')}`
  return `${s.maxCommitsBefore} commit${s.maxCommitsBefore === 1 ? '' : 's'} before; ${requests}`
}

/** A row of ours against a bare baseline measured in the same run (Echo's SDK has no counterpart). */
function baselineRow(what, result, format) {
  const summary = format.short && {
    short: format.short,
    oursBrief: result.error ? failed(result) : `${format.ratio(result.value)} ${format.against}`,
    theirsBrief: '-',
    budgetBrief: format.budget,
  }
  if (result.error)
    return { what, ours: failed(result), theirs: '-', ratio: '-', budget: format.budget, met: false, summary }
  const v = result.value
  return {
    summary,
    what,
    ours: format.ours(v),
    theirs: format.baseline(v),
    ratio: format.ratio(v),
    budget: format.budget,
    met: format.met(v),
  }
}

const metText = (met) => (met === undefined ? '-' : met ? 'met' : '**missed**')
const summaryTable = [
  `| measure | echo-rtk | Echo's SDK ${theirVersion} | budget | met |`,
  '| --- | --- | --- | --- | --- |',
  ...rows
    .filter((r) => r.summary)
    .map(
      ({ summary: s, met }) =>
        `| ${s.short} | ${s.oursBrief} | ${s.theirsBrief} | ${s.budgetBrief} | ${metText(met)} |`,
    ),
].join('\n')
const table = [
  `| measure | echo-rtk | Echo's SDK ${theirVersion} (or the baseline named) | ratio (echo-rtk ÷ other) | budget | met |`,
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.what} | ${r.ours} | ${r.theirs} | ${r.ratio} | ${r.budget} | ${metText(r.met)} |`),
].join('\n')

const chunkText = (chunks) =>
  chunks.map((c) => `${c.name} ${bytes(c.gzip)}${c.firstLoad ? ' (first load)' : ''}`).join(', ')
const breakdown = (result) =>
  result.error
    ? `not measured: ${result.error}`
    : `first load ${bytes(result.value.total.minified)} minified, ${bytes(result.value.total.gzip)} gzip -9, ` +
      `${bytes(result.value.total.brotli)} brotli; the whole app ${bytes(result.value.total.whole.gzip)} gzip -9; ` +
      `chunks (gzip -9): ${chunkText(result.value.total.chunks)}; ` +
      `minified bytes by package: ${formatBreakdown(result.value.total.packages)}`

const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`
const markdown = `# Benchmarks

Command: \`npm run bench\` (builds the package, installs Echo's SDK into bench/ if needed, then runs \`node bench/run.mjs\`).
Machine: ${machine}.
Run: ${new Date().toISOString()}.
Compared with: \`${ECHO_REACT_SDK}\` ${theirVersion} and the client it builds on, \`${ECHO_TYPESCRIPT_SDK}\` ${theirClientVersion} (bench/package.json, bench/package-lock.json).

${summaryTable}

## Every measure

${table}

## Where the start-up time goes

${profileSection()}

## Bundle breakdown

The same minimal app (\`EchoProvider\` + \`useEcho\` + \`EchoSignIn\`, mounted with \`createRoot\`),
bundled by esbuild with the settings of docs/performance.md: minify, \`format: 'esm'\`, \`platform: 'browser'\`,
\`jsx: 'automatic'\`, \`process.env.NODE_ENV\` = \`"production"\`, react, react-dom and
react/jsx-runtime external, in a directory of its own whose package.json says \`"type": "module"\`.

- echo-rtk (dist/, imported as \`echo-rtk\`): ${breakdown(bundle.ours)}.
- ${ECHO_REACT_SDK} ${theirVersion}: ${breakdown(bundle.theirs)}.

## How each figure is taken

- **Bundle.** echo-rtk is the built package linked into the app's node_modules as \`echo-rtk\`, so its
  \`exports\` and its dependencies resolve as in a user's app. Echo's SDK is bundled with bench/'s
  node_modules as the app's whole node_modules (symlinks kept), so nothing else installed in this repo
  can be picked up: its DOMPurify wrapper calls \`require("jsdom")\` in a \`try\`, which an app without
  jsdom leaves unresolved. Bundled with code splitting, as an app's bundler does: "first load" is the
  entry and the chunks it imports statically, what a returning signed-in user's page downloads; "the
  whole app" adds the chunks loaded on demand (echo-rtk's sign-in), all but the models list, which
  this app never asks for. Each chunk is compressed on its own, as a server sends it: gzip -9 and
  brotli (quality 11) by Node's zlib. "Own code" bundles again
  with every bare import but the SDK itself external; Echo's SDK ships Echo's TypeScript SDK and the
  AI SDK providers inlined in its own dist/, so they count as its own code.
- **Refresh storm, client.** 1,000 \`balance\` calls at once with a token the server rejects, against a
  loopback server in its own process whose token endpoint rotates the refresh token (25 ms per
  refresh) and whose 401s are spread over 60 ms, so they land before, during and after the refresh.
  Ours: \`EchoClient\` of \`echo-rtk/client\`. Theirs: \`EchoClient\` of \`${ECHO_TYPESCRIPT_SDK}\`
  with an \`OAuthTokenProvider\` calling the same token endpoint the same way (that SDK's
  HttpClient takes no fetch option, so the request ids are added by swapping the global \`fetch\`).
  Its HttpClient shares a refresh only while it is in flight: a 401 that arrives after it ended
  starts another one (here with the rotated refresh token, so it succeeds).
- **Refresh storm through the React API** (jsdom). Each provider restores a stored session; once it
  has settled the server forgets that access token (keeping the refresh token), and 1,000 calls start
  at once through what each SDK hands components: ours \`useEchoRouter().chat.completions.create()\`,
  theirs \`useEcho().echoClient.balance.getBalance()\`, whose refresh is react-oidc-context's
  \`signinSilent()\` (a refresh-token grant by oidc-client-ts, then its userinfo call). That refresh
  succeeds, but the client's token getter (\`useEchoClient\`: \`() => auth.user?.access_token\`) reads
  the \`auth.user\` of the render that built the client, so each retry carries the old token again
  and is refused (hence twice as many 401s as calls); a new client comes with the next render, too
  late for calls already made.
- **Re-renders** (jsdom). A stored user whose token each SDK renews about 2 s after start (ours: 3 s
  token, renewed a third of its life early; theirs: 62 s token, as oidc-client-ts's automatic silent
  renew fires 60 s early); counting starts once the balance shows and stops 300 ms after the token
  endpoint was called. Ours shows the balance with \`<EchoBalance>\`; Echo's SDK has no balance
  component, so its balance-only component reads \`useEcho().balance\`. Counted by React DevTools'
  rule (a fiber processed with React's PerformedWork flag, seen through React's DevTools hook), not
  by \`<Profiler onRender>\`: a Profiler whose own props did not change is not told of a re-render
  that reaches a component below it through a context${profilerNote()}.
- **Start-up in Chromium.** The minimal app of the bundle rows on each SDK, showing the name in an
  element of its own once \`useEcho().user\` is known, built by esbuild as an app's production
  build (minify, \`process.env.NODE_ENV\` = \`"production"\`, ESM with splitting, React and
  react-dom inside), its page preloading the chunks the entry imports. Each app is served from a
  loopback origin of its own; the Echo host both apps name is a loopback stub on another origin (so
  requests are preflighted, as with Echo) answering with echo-rtk's fixtures of Echo's answers. A
  fresh browser context per load opens an empty page on the app's origin, sets the CPU throttling
  (CDP \`Emulation.setCPUThrottlingRate\`) and the metrics there, then navigates to the app; an
  init script stores the valid session in localStorage before any of the page's scripts
  (oidc-client-ts's format, where both SDKs look). The time runs from navigation start to the
  name's Element Timing \`renderTime\` (Chromium's own record of when the element was first
  presented, rounded to 4 ms; a frame-then-task estimate stands in where no entry comes). Script:
  CDP \`Performance.getMetrics\`' \`ScriptDuration\`, read when the page's first task after the
  frame that drew the name reports (on a few loads checked against a Chromium trace: within 10% of
  the script run before the paint). Requests: those the page started (Resource Timing's
  \`startTime\`, when \`fetch()\` was called) before the paint, to Echo and in all (the page
  itself included); in brackets, how many requests, preflights included, had reached the stub by
  then (the stub's clock). Echo's SDK's \`user\` is its answer to \`GET /api/v1/user\`, so it
  cannot show the name before that answer, while echo-rtk's comes from the stored session; on
  loopback there is no network latency, so a real network adds its round trips to Echo's SDK's
  time only.${browserNote()}
- **Start-up** (jsdom). A stored session valid for 15 minutes; the time from \`root.render()\` to the
  first commit where a probe sees \`status === 'authenticated'\` (ours) or \`isLoggedIn\` (theirs),
  median of all mounts of ${START_UP_ROUNDS} processes per SDK (15 mounts each after 2 warm-up mounts; the
  two SDKs' processes take turns, so drift on the machine falls on both alike); the requests are those sent through \`fetch\` before
  that commit (and how many of them were answered), the most in any mount. echo-rtk's provider
  starts the session in a layout effect, so its first signed-in commit comes before the balance
  requests leave.
- Every jsdom measure runs in a child process of its own (one jsdom page, one React copy), with
  React's development build (where the Profiler reports), killed if it has not answered in 90 s.
- **The server route** (echo-rtk/server). Two routes served over node:http by the same small
  Web-\`Request\` adapter, each reading the request and calling the router's chat completions with
  the user's token, then answering its JSON: one through \`echo.route\` and \`user.fetch\` (the token
  verified with the loopback "Echo" once, then taken from the kept verdict), the other passing the
  Authorization header on by hand. The median per-request time of 6,000 requests to each, sent one
  to each in turn after 500 warm-up pairs.
- **Overhead and streaming** compare echo-rtk with bare \`fetch\` and the raw body in the same run (these
  two rows are not measured on Echo's SDK). The overhead figure is the median
  per-request time of 10,000 sequential requests on each side, in interleaved blocks of 250 after
  1,000 warm-up requests each, so both sides meet the same machine. The streaming figure compares the
  time from an event being written to the socket to its arrival in the caller's \`for await\` loop
  (\`createEchoRouter\` streaming chat) with the time to the raw body bytes holding it (bare \`fetch\`,
  body reader), after 10 warm-up events per request; its server runs in the benchmark's own process,
  so both instants come from one clock, and a ${m.stream.value?.pauseMs ?? 2} ms pause follows each
  event, so each event is its own read. Its ratio column is the difference of the two medians.
`

function browserNote() {
  const result = m.browserStartUp.value
  if (!result) return ''
  const summaries = Object.values(result.byRate).flatMap((sides) => Object.values(sides))
  const timed = summaries.reduce((sum, s) => sum + s.byElementTiming, 0)
  const loads = summaries.reduce((sum, s) => sum + s.loads, 0)
  return (
    `\n  Chromium ${result.chromium} (Debian's, headless, through playwright-core), ${result.loads} loads per` +
    `\n  SDK and rate after one warm-up load each, the loads of the two SDKs and of React alone (the same` +
    `\n  page without an SDK, the name read from storage by the page itself) in turns; the name's paint was timed` +
    `\n  by Element Timing in ${timed} of the ${loads} timed loads.`
  )
}

function profileSection() {
  const result = m.startUpProfile
  if (result.error) return `Not measured: ${result.error}`
  const { chromium, loads, rate } = result.value
  return (
    oneLine`Chromium ${chromium}'s CPU profile (V8's sampler, every 100 µs) of ${loads} loads each of the minimal app
    with a stored session and of React alone painting the same name, at ${rate}× CPU throttling, from the
    navigation to the signed-in paint (bench/startUpProfile.mjs). The mean busy time per load, by the source file
    each sample's line comes from (the build's source map, the package's own maps read in); idle time is not
    counted, and the profiler's own cost makes every figure larger than the unprofiled start-up above.` +
    `\n\n${profileTable(result.value)}`
  )
}

function profilerNote() {
  const ours = m.renders.value?.profiled
  const theirs = m.theirRenders.value?.profiled
  if (!ours || !theirs) return ''
  return ` (its counts in this run: balance ${ours.balance} and useEcho() ${ours.useEcho} for echo-rtk, ${theirs.balance} and ${theirs.useEcho} for Echo's SDK)`
}

writeFileSync(new URL('./results.md', import.meta.url), markdown)
// The README shows the summary table, so that what it claims is what this run measured.
const readmeUrl = new URL('../README.md', import.meta.url)
const readme = readFileSync(readmeUrl, 'utf8')
const tableInReadme = /(<!-- bench:table -->\n)[\s\S]*?(\n<!-- \/bench:table -->)/
if (!tableInReadme.test(readme))
  throw new Error('README.md has no <!-- bench:table --> … <!-- /bench:table --> block to write the table into')
writeFileSync(
  readmeUrl,
  readme.replace(tableInReadme, (_, open, close) => `${open}${summaryTable}${close}`),
)
console.log(`\n${summaryTable}\n\nWritten to bench/results.md and README.md`)
const missed = rows.filter((r) => r.met === false)
if (missed.length > 0) {
  console.error(`Budget missed: ${missed.map((r) => r.what).join('; ')}`)
  process.exit(1)
}
