// The runs of `npm test` on what the lockfile does not hold (scripts/toolchain.mjs installs each):
//
//   node scripts/otherRuntimes.mjs typescript   the source, and the built package as an app compiles
//                                               it, type-checked on the newest TypeScript (7)
//   node scripts/otherRuntimes.mjs lowest-node  what runs on the user's own Node (echo-rtk/client,
//                                               echo-rtk/server, echo-rtk/testing) and the built
//                                               package's type check, on the lowest Node engines names
import { existsSync, rmSync } from 'node:fs'

import { run } from './run.mjs'
import { ensureNode, ensureTypeScript, LOWEST_NODE_REPORT, runtimes } from './toolchain.mjs'

/** The tests of the entries that run on the user's Node, and what they stand on. */
const ON_USERS_NODE = ['test/api', 'test/client.test.ts', 'test/server.test.ts', 'test/server', 'test/testing']
/** An app's code against the built package (test/peers/consumer.tsx), as a Vite or Next.js app compiles it. */
const CONSUMER = 'test/peers/tsconfig.consumer.json'

async function newestTypeScript() {
  const tsc = await ensureTypeScript(runtimes.typescript)
  if (tsc === null) return 1
  console.log(
    `TypeScript ${runtimes.typescript}: the source (tsconfig.json), then the built package as an app compiles it`,
  )
  const source = await run(process.execPath, [tsc, '--noEmit', '-p', '.'])
  const consumer = await run(process.execPath, [tsc, '-p', CONSUMER])
  return source === 0 && consumer === 0 ? 0 : 1
}

async function lowestNode() {
  const node = await ensureNode(runtimes.node.lowest)
  if (node === null) {
    console.log(
      `No Node ${runtimes.node.lowest} from the registry for ${process.platform}-${process.arch}: not run here`,
    )
    return 0
  }
  rmSync(LOWEST_NODE_REPORT, { force: true })
  console.log(`Node ${runtimes.node.lowest}: ${ON_USERS_NODE.join(', ')}; then the built package's type check`)
  const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--project', 'node', '--project', 'dom']
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${LOWEST_NODE_REPORT}`]
  const tested = await run(node, [...vitest, ...reporters, ...ON_USERS_NODE])
  const typed = await run(node, ['node_modules/typescript/bin/tsc', '-p', CONSUMER])
  if (!existsSync(LOWEST_NODE_REPORT)) console.error('No report from the lowest Node run: its tests did not run.')
  return tested === 0 && typed === 0 ? 0 : 1
}

const legs = { typescript: newestTypeScript, 'lowest-node': lowestNode }
const leg = legs[process.argv[2]]
if (leg === undefined) {
  console.error(`Usage: node scripts/otherRuntimes.mjs ${Object.keys(legs).join(' | ')}`)
  process.exit(2)
}
process.exitCode = await leg()
