// What the React benchmarks share: a jsdom page as the global one, a stored oidc-client-ts user,
// waiting with a deadline, and counting (or tagging) the requests the page makes.
import { JSDOM } from 'jsdom'

/** Makes jsdom's window the global one, as a browser page would have it (React reads globals). */
export function installDom() {
  const dom = new JSDOM('<!doctype html><div id="root"></div>', { url: 'http://localhost:5173/' })
  for (const key of Object.getOwnPropertyNames(dom.window)) {
    if (!(key in globalThis)) globalThis[key] = dom.window[key]
  }
  // Node 25 and later have web storage of their own, unusable without --localstorage-file: the page's it is.
  for (const key of ['localStorage', 'sessionStorage'])
    Object.defineProperty(globalThis, key, { value: dom.window[key], configurable: true, writable: true })
  globalThis.window = dom.window
  globalThis.document = dom.window.document
  return dom
}

/**
 * The user oidc-client-ts would have stored after a sign-in (both SDKs keep it under the same key):
 * `access`, valid for `lifetimeS` more seconds, and the refresh token `refresh`.
 */
export function storeSignedInUser(storage, { apiUrl, appId, access = 'access-0', refresh = 'refresh-0', lifetimeS }) {
  storage.setItem(
    `oidc.user:${apiUrl}:${appId}`,
    JSON.stringify({
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      scope: 'llm:invoke offline_access',
      profile: { sub: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' },
      expires_at: Math.floor(Date.now() / 1000) + lifetimeS,
    }),
  )
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export async function waitUntil(check, timeoutMs, what = 'the condition') {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms in vain for ${what}`)
    await sleep(10)
  }
}

/** The loopback server's counters: token-endpoint calls and rejected requests. */
export async function serverStats(baseUrl) {
  return (await bareFetch(`${baseUrl}/stats`)).json()
}

export const bareFetch = globalThis.fetch

/**
 * Replaces the global `fetch` (which both SDKs look up at call time) with one that notes every
 * request sent and every answer received and, on the guarded paths given, adds the request id the
 * loopback server spreads its 401s by. Returns those lists and the undo.
 */
export function wrapFetch({ tagPaths = [] } = {}) {
  const requests = []
  const answered = []
  let next = 0
  const send = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (!tagPaths.includes(url.pathname)) return bareFetch(input, init)
    url.searchParams.set('id', String(next++))
    return input instanceof Request ? bareFetch(new Request(url, input), init) : bareFetch(url, init)
  }
  globalThis.fetch = async (input, init) => {
    const request = `${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${new URL(input instanceof Request ? input.url : String(input)).pathname}`
    requests.push(request)
    const response = await send(input, init)
    answered.push(request)
    return response
  }
  window.fetch = globalThis.fetch
  return {
    requests,
    answered,
    restore: () => {
      globalThis.fetch = bareFetch
      window.fetch = bareFetch
    },
  }
}

/** React's fiber flag for "this component's render ran and its output was reconciled". */
const PERFORMED_WORK = 1

/**
 * Counts, commit by commit, the re-renders of chosen components the way React DevTools does: a
 * component rendered in a commit if its fiber was processed (a new fiber object in the committed
 * tree) with React's PerformedWork flag. It sits in React's DevTools hook, so install it before
 * react-dom loads. (React's <Profiler onRender> is blind to re-renders that reach a component
 * through a context change below a Profiler whose own props did not change: it calls onRender for
 * their mount only.)
 */
export function installRenderCounter() {
  const watched = new Map()
  const instances = new WeakMap()
  const counts = {}
  let counting = false
  const visit = (fiber) => {
    const name = watched.get(fiber.elementType) ?? watched.get(fiber.type)
    if (name === undefined) return
    let instance = instances.get(fiber) ?? (fiber.alternate && instances.get(fiber.alternate))
    const rendered = !instance || (instance.lastFiber !== fiber && (fiber.flags & PERFORMED_WORK) !== 0)
    if (!instance) instance = {}
    instance.lastFiber = fiber
    instances.set(fiber, instance)
    if (rendered && counting) counts[name] += 1
  }
  globalThis.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => 1,
    checkDCE() {},
    onScheduleFiberRoot() {},
    onPostCommitFiberRoot() {},
    onCommitFiberUnmount() {},
    onCommitFiberRoot(_rendererId, root) {
      const stack = [root.current]
      while (stack.length > 0) {
        const fiber = stack.pop()
        visit(fiber)
        if (fiber.sibling) stack.push(fiber.sibling)
        if (fiber.child) stack.push(fiber.child)
      }
    },
  }
  return {
    watch(component, name) {
      watched.set(component, name)
      counts[name] = 0
    },
    start: () => (counting = true),
    stop: () => (counting = false),
    counts,
  }
}
