// Redux DevTools as a page meets it: the extension's page API (`window.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__`)
// stubbed as the extension exposes it, installed with `page.addInitScript(devToolsExtension)`. The test then
// reads what DevTools shows and dispatches what its dispatcher would.
import type { Page } from 'playwright-core'

/**
 * The extension's page API as the demo's stores meet it: a compose that records each store's actions and
 * can dispatch to it. As DevTools, it keeps one instance per store (React StrictMode makes and drops one)
 * and shows the busy one, the store the app runs on.
 */
export function devToolsExtension() {
  type Recorded = { type: string; meta?: { cause?: Record<string, unknown> }; payload?: unknown }
  type Instance = {
    log: Recorded[]
    names: string[]
    play(name: string, ...args: unknown[]): void
    /** Shows the state after action `index` (DevTools' jump), or the present with `null` (its "jump to the last action"). */
    jumpTo(index: number | null): void
    states: unknown[]
  }
  const page = window as unknown as {
    __REDUX_DEVTOOLS_EXTENSION_COMPOSE__: unknown
    __devTools: { instances: Instance[]; readonly shown: Instance }
  }
  const instances: Instance[] = []
  page.__devTools = {
    instances,
    get shown() {
      return instances.reduce((busiest, instance) => (instance.log.length > busiest.log.length ? instance : busiest))
    },
  }
  type Reducer = (state: unknown, action: Recorded) => unknown
  type Options = {
    actionSanitizer?: (action: Recorded, id: number) => Recorded
    actionCreators?: Record<string, (...args: unknown[]) => Recorded>
  }
  type CreateStore = (reducer: Reducer, preloaded?: unknown) => { dispatch(action: Recorded): unknown }
  page.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__ =
    (options: Options) =>
    (...enhancers: ((next: CreateStore) => CreateStore)[]) =>
    (createStore: CreateStore) =>
    (reducer: Reducer, preloaded?: unknown) => {
      const names = Object.keys(options.actionCreators ?? {})
      const instance: Instance = { log: [], names, states: [], play: () => undefined, jumpTo: () => undefined }
      instances.push(instance)
      const JUMP = '@@devtools/JUMP_TO_STATE'
      let id = 0
      let live = preloaded
      let viewing: number | null = null
      // The extension lifts the reducer: it sees every action that reaches it, sanitized, and keeps each
      // state; after a jump the store shows the state jumped to while the live one goes on underneath.
      const recording: Reducer = (_state, action) => {
        if (action.type === JUMP) viewing = action.payload as number | null
        else {
          const shown = options.actionSanitizer ? options.actionSanitizer(action, id++) : action
          instance.log.push(JSON.parse(JSON.stringify(shown)) as Recorded)
          live = reducer(live, action)
          instance.states.push(live)
        }
        return viewing === null ? live : instance.states[viewing]
      }
      const store = enhancers.reduceRight((next, enhancer) => enhancer(next), createStore)(recording, preloaded)
      instance.play = (name, ...args) => void store.dispatch(options.actionCreators![name]!(...args))
      instance.jumpTo = (index) => void store.dispatch({ type: JUMP, payload: index })
      return store
    }
}

export type Logged = { type: string; meta?: { cause?: Record<string, unknown> } }
export type Shown = {
  __devTools: {
    shown: {
      log: Logged[]
      names: string[]
      states: unknown[]
      play(...args: unknown[]): void
      jumpTo(index: number | null): void
    }
  }
}
export const logged = (page: Page) => page.evaluate(() => (window as unknown as Shown).__devTools.shown.log)
export const play = (page: Page, name: string, ...args: unknown[]) =>
  page.evaluate(([moment, rest]) => (window as unknown as Shown).__devTools.shown.play(moment, ...rest), [
    name,
    args,
  ] as const)
