// One React benchmark on one SDK, in a process of its own: a fresh jsdom page, one React copy, no
// timers or globals left over from the other SDK. Started by runInChild.mjs, which it answers
// through the IPC channel before it exits.
import { adapters } from './reactAdapters.mjs'
import { installDom, installRenderCounter } from './dom.mjs'
import { measureReactRefreshStorm } from './reactRefreshStorm.mjs'
import { measureRenderCounts } from './renderCounts.mjs'
import { measureStartUp } from './startUp.mjs'

const scenarios = { renders: measureRenderCounts, startUp: measureStartUp, storm: measureReactRefreshStorm }

const [sdkName, scenarioName, baseUrl] = process.argv.slice(2)
try {
  const dom = installDom()
  // Before react-dom loads: it looks for React's DevTools hook once, when it loads.
  const renderCounter = installRenderCounter()
  const sdk = { ...(await adapters[sdkName]()), renderCounter }
  const result = await scenarios[scenarioName](sdk, baseUrl)
  dom.window.close()
  process.send({ result }, () => process.exit(0))
} catch (error) {
  process.send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () =>
    process.exit(1),
  )
}
