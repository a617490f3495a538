// An attacker's script in the app's pages, as an XSS or a hostile dependency would run it: added to
// every page of a browser context before any of the app's scripts, it records what a script of the
// page can reach (storage, IndexedDB, the cookies it can read, every BroadcastChannel and
// postMessage message, every request header and body the page's scripts send, the address and the
// performance entries, the console, the store's raw actions and state as a DevTools hook sees them)
// and reports it to the test. The test then looks there for the tokens, codes and verifiers it
// learnt outside the page (from the local Echo).
import type { BrowserContext, Page } from 'playwright-core'

/** One thing the attacker's script saw: where, and what. */
export interface ProbeRecord {
  where: string
  what: string
}

/** The script itself, added with `context.addInitScript(attackerScript)`; it reports through `__probeReport`. */
export function attackerScript() {
  const report = (where: string, value: unknown) => {
    let what: string
    try {
      what = typeof value === 'string' ? value : JSON.stringify(value)
    } catch {
      what = String(value)
    }
    void (window as unknown as { __probeReport(where: string, what: string): Promise<void> }).__probeReport(where, what)
  }
  report('location at load', location.href)
  const setItem = Storage.prototype.setItem
  Storage.prototype.setItem = function (key: string, value: string) {
    report(`storage write ${key}`, String(value))
    return setItem.call(this, key, value)
  }
  const Channel = window.BroadcastChannel
  if (Channel !== undefined) {
    const post = Channel.prototype.postMessage
    Channel.prototype.postMessage = function (message: unknown) {
      report(`channel ${this.name} sent`, message)
      return post.call(this, message)
    }
    // Every channel the app opens, the attacker opens too, and hears what the app's other tabs say on it.
    window.BroadcastChannel = class extends Channel {
      constructor(name: string) {
        super(name)
        const listening = new Channel(name)
        listening.onmessage = (event) => report(`channel ${name} heard`, event.data)
      }
    }
  }
  window.addEventListener('message', (event) => report('postMessage heard', event.data), true)
  const fetch = window.fetch
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    try {
      const request = new Request(input, init)
      report('fetch', `${request.method} ${request.url} ${JSON.stringify([...request.headers])}`)
      const body = init?.body
      if (typeof body === 'string' || body instanceof URLSearchParams) report('fetch body', String(body))
    } catch {
      report('fetch', input instanceof Request ? input.url : input instanceof URL ? input.href : input)
    }
    return fetch.call(this, input, init)
  }
  const setRequestHeader = XMLHttpRequest.prototype.setRequestHeader
  XMLHttpRequest.prototype.setRequestHeader = function (name: string, value: string) {
    report('xhr header', `${name}: ${value}`)
    return setRequestHeader.call(this, name, value)
  }
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const write = console[level]
    console[level] = function (...args: unknown[]) {
      report(
        `console.${level}`,
        args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : arg)),
      )
      return write.apply(this, args)
    }
  }
  // A Redux DevTools stand-in: it sees every raw action and state of the page's stores, as a hook of the page's own would.
  const page = window as unknown as { __REDUX_DEVTOOLS_EXTENSION_COMPOSE__: unknown }
  type Reducer = (state: unknown, action: unknown) => unknown
  type CreateStore = (reducer: Reducer, preloaded?: unknown) => unknown
  page.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__ =
    () =>
    (...enhancers: ((next: CreateStore) => CreateStore)[]) =>
    (createStore: CreateStore) =>
    (reducer: Reducer, preloaded?: unknown) =>
      enhancers.reduceRight((next, enhancer) => enhancer(next), createStore)((state, action) => {
        report('store action', action)
        const next = reducer(state, action)
        report('store state', next)
        return next
      }, preloaded)
}

/** What the page holds now, as its script reads it: storage, cookies, IndexedDB, the address and the performance entries. */
async function pageHoldings(page: Page): Promise<ProbeRecord[]> {
  return page.evaluate(async () => {
    const held: { where: string; what: string }[] = []
    for (const [name, storage] of [
      ['localStorage', localStorage],
      ['sessionStorage', sessionStorage],
    ] as const)
      for (let index = 0; index < storage.length; index += 1) {
        const key = storage.key(index)!
        held.push({ where: `${name} ${key}`, what: storage.getItem(key) ?? '' })
      }
    held.push({ where: 'document.cookie', what: document.cookie })
    held.push({ where: 'location', what: location.href })
    for (const entry of performance.getEntries())
      held.push({ where: `performance ${entry.entryType}`, what: entry.name })
    for (const { name } of await indexedDB.databases()) {
      if (name === undefined) continue
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const opening = indexedDB.open(name)
        opening.onsuccess = () => resolve(opening.result)
        opening.onerror = () => reject(opening.error ?? new Error(`IndexedDB ${name} did not open`))
      })
      for (const store of database.objectStoreNames) {
        const all = await new Promise<unknown[]>((resolve) => {
          const reading = database.transaction(store).objectStore(store).getAll()
          reading.onsuccess = () => resolve(reading.result)
        })
        held.push({ where: `IndexedDB ${name}/${store}`, what: JSON.stringify(all) })
      }
      database.close()
    }
    return held
  })
}

/** The probe on `context`: every page opened in it from now on runs the attacker's script first. */
export async function probeContext(context: BrowserContext) {
  const records: ProbeRecord[] = []
  await context.exposeBinding('__probeReport', (_source, where: string, what: string) => {
    records.push({ where, what })
  })
  await context.addInitScript(attackerScript)
  return {
    records,
    /** What the attacker's script saw, and what `pages` hold now. */
    async seen(pages: Page[]): Promise<ProbeRecord[]> {
      const held = await Promise.all(pages.filter((page) => !page.isClosed()).map(pageHoldings))
      return [...records, ...held.flat()]
    },
  }
}

/** The records that hold any of `secrets`, each with the kind of secret found (never the secret itself). */
export function containing(records: ProbeRecord[], secrets: Record<string, Iterable<string>>): string[] {
  const found = new Set<string>()
  for (const [kind, values] of Object.entries(secrets))
    for (const secret of values)
      for (const { where, what } of records) if (what.includes(secret)) found.add(`${kind} in ${where}`)
  return [...found].sort()
}
