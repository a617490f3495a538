// `npm run bench`: measures echo-rtk against its budgets (DESIGN §6) and writes bench/results.md.
// Every figure is a ratio, a difference or a count taken in this same run, never a fixed time.
import { writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'

import { measureFetchOverhead } from './fetchOverhead.mjs'
import { measureRefreshStorm } from './refreshStorm.mjs'
import { startLoopbackServer } from './startServer.mjs'
import { measureStreamLatency } from './streamLatency.mjs'

const server = await startLoopbackServer()
let overhead
let storm
try {
  console.log('Measuring the authorized fetch against bare fetch (10,000 requests each)...')
  overhead = await measureFetchOverhead(server.url)
  console.log('Measuring the refresh storm (1,000 concurrent calls with an expired token)...')
  storm = await measureRefreshStorm(server.url)
} finally {
  await server.stop()
}
console.log('Measuring streaming latency: socket write to event, router stream against the raw body...')
const stream = await measureStreamLatency()

const rows = [
  {
    what: 'Authorized fetch overhead: median of 10,000 loopback requests',
    ours: `${overhead.echoMedianUs.toFixed(1)} µs`,
    baseline: `${overhead.bareMedianUs.toFixed(1)} µs (bare fetch)`,
    ratio: `${overhead.ratio.toFixed(3)}×`,
    budget: 'at most 1.05×',
    met: overhead.ratio <= 1.05,
  },
  {
    what: 'Refresh storm: 1,000 concurrent calls, expired token, 401s spread over 60 ms',
    ours: `${storm.tokenCalls} token call(s), ${storm.succeeded} succeeded, ${storm.failed} failed, ${storm.wallMs.toFixed(0)} ms`,
    baseline: '-',
    ratio: '-',
    budget: 'exactly 1 token call and 1,000 successes',
    met: storm.tokenCalls === 1 && storm.succeeded === storm.calls,
  },
  {
    what: `Streaming latency: socket write to event in the caller's loop, median of ${stream.events} SSE events`,
    ours: `${stream.echoMedianUs.toFixed(0)} µs`,
    baseline: `${stream.rawMedianUs.toFixed(0)} µs (raw body bytes)`,
    ratio: `${stream.extraUs >= 0 ? '+' : ''}${stream.extraUs.toFixed(0)} µs`,
    budget: 'within 1 ms (1,000 µs) of the raw stream',
    met: stream.extraUs <= 1000,
  },
]

const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`
const table = [
  '| measure | echo-rtk | baseline | ratio | budget | met |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.what} | ${r.ours} | ${r.baseline} | ${r.ratio} | ${r.budget} | ${r.met ? 'met' : '**missed**'} |`),
].join('\n')
const markdown = `# Benchmarks

Command: \`npm run bench\` (builds the package, then runs \`node bench/run.mjs\`).
Machine: ${machine}.
Run: ${new Date().toISOString()}.

${table}

The loopback server of the first two rows runs in its own process. The overhead figure is the median per-request time of
10,000 sequential requests on each side, taken in interleaved blocks of 250 after 1,000 warm-up
requests each, so both sides meet the same machine.

The streaming figure compares, in the same run, the time from an event being written to the socket
to its arrival in the caller's \`for await\` loop (\`createEchoRouter\` streaming chat) with the time to
the raw body bytes holding it (bare \`fetch\`, body reader), after 10 warm-up events per request.
Its server runs in the benchmark's own process, so that both instants come from one clock; a
${stream.pauseMs} ms pause follows each event, so each event is its own read. Its ratio column is the
difference of the two medians.
`
writeFileSync(new URL('./results.md', import.meta.url), markdown)
console.log(`\n${table}\n\nWritten to bench/results.md`)
const missed = rows.filter((r) => !r.met)
if (missed.length > 0) {
  console.error(`Budget missed: ${missed.map((r) => r.what).join('; ')}`)
  process.exit(1)
}
