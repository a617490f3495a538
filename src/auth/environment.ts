import type { FetchFunction } from '../api/tokenProvider'

/**
 * Everything the session touches outside itself, as a parameter: the browser by default, fakes in
 * tests, and never read at import time (so server rendering and `echo-rtk/client` stay clean).
 */
export interface EchoEnvironment {
  /** The page's address, read at start for a sign-in coming back. */
  location: { readonly href: string }
  history: { readonly state: unknown; replaceState(data: unknown, unused: string, url?: string | URL | null): void }
  /** Where the user and the sign-in state are kept: `localStorage`. */
  storage: Storage
  /**
   * What this tab alone keeps while it is away for a sign-in, in server mode (what the app handed to
   * it): `sessionStorage`. `storage` where it is not given.
   */
  tabStorage?: Storage | undefined
  /** Leaves the page for Echo's sign-in. */
  navigate(url: string): void
  fetch: FetchFunction
  /** Web Locks, where the browser has them; refreshes are serialized across tabs under one. */
  locks: Pick<LockManager, 'request'> | undefined
  /** Opens the channel tabs hand rotated tokens over on; `undefined` where there is none. */
  openChannel: ((name: string) => BroadcastChannel) | undefined
  /** Subscribes to `storage` events (other tabs' writes); returns the unsubscribe. */
  onStorage(listener: (event: StorageEvent) => void): () => void
  /**
   * Subscribes to what the page says of itself (a {@link PageSignal}): the one wire both the session (which
   * tries again at once on a {@link WakeCause}) and RTK Query's refetch on focus and reconnect listen on.
   * Returns the unsubscribe.
   */
  onPageSignal(listener: (signal: PageSignal) => void): () => void
  now(): number
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  /** Where a failed refresh is logged. */
  logError(message: string, error: unknown): void
  /** Where a setup mistake is pointed out (in development builds), and an outage of Echo's (once). */
  logWarning(message: string): void
  /** Closes this tab: a checkout tab the app opened, once checkout has returned to it, or a sign-in popup. */
  closeWindow(): void
  /** Opens a window (`window.open`); `null` when the browser blocked it. */
  openWindow(url: string, target: string, features: string): PopupWindow | null
  /** Where this page's window is on the screen, for a popup to open over its middle. */
  windowFrame(): { x: number; y: number; width: number; height: number }
  /** Subscribes to messages posted to this window (`message` events); returns the unsubscribe. */
  onMessage(listener: (event: { origin: string; source: unknown; data: unknown }) => void): () => void
  /** Posts `message` to the window that opened this one, if any, only if it is at `origin`. */
  postToOpener(message: unknown, origin: string): void
  /** Runs work that can wait (the balance calls after a sign-in) once the page has painted: {@link afterPaint}. */
  afterPaint?: ((run: () => void) => void) | undefined
}

/** The part of a window the sign-in popup's opener uses. */
export interface PopupWindow {
  readonly closed: boolean
  focus(): void
  close(): void
  location: { replace(url: string): void }
  postMessage(message: unknown, targetOrigin: string): void
}

/** Why the page may reach Echo again: the browser is back `online`, or the page is `visible` again. */
export type WakeCause = 'online' | 'visible'

/** What the page says of itself: back `online` or `offline`, shown again (`visible`) or `hidden`, or its window focused. */
export type PageSignal = WakeCause | 'offline' | 'hidden' | 'focus'

/** The window's events that are {@link PageSignal}s. */
const PAGE_EVENTS = ['online', 'offline', 'focus', 'visibilitychange']

/** Whether `signal` is a moment the page may reach Echo again (a laptop woken up, a tab come back to). */
export const isWake = (signal: PageSignal): signal is WakeCause => signal === 'online' || signal === 'visible'

/**
 * The session's environment: `overrides` over the real browser, read when a session starts. A
 * complete set of overrides needs no browser at all (a server, a benchmark, a test in Node).
 */
export function sessionEnvironment(overrides: Partial<EchoEnvironment> = {}): EchoEnvironment {
  return typeof window === 'undefined' ? (overrides as EchoEnvironment) : { ...browserEnvironment(), ...overrides }
}

/** The real browser. */
function browserEnvironment(): EchoEnvironment {
  const { location, history } = window
  // Some DOMs have the property but no Web Locks behind it (happy-dom's `navigator.locks` is null).
  const { locks } = (typeof navigator === 'undefined' ? {} : navigator) as { locks?: LockManager | null }
  return {
    location,
    history,
    storage: pageStorage(),
    tabStorage: tabStorage(),
    navigate: (url) => location.assign(url),
    fetch: (input, init) => globalThis.fetch(input, init),
    locks: locks ?? undefined,
    openChannel: typeof BroadcastChannel === 'function' ? (name) => new BroadcastChannel(name) : undefined,
    onStorage: (listener) => {
      window.addEventListener('storage', listener)
      return () => window.removeEventListener('storage', listener)
    },
    onPageSignal: (listener) => {
      // `visibilitychange` is fired at the document and bubbles to the window.
      const heard = ({ type }: Event) =>
        listener(
          type !== 'visibilitychange'
            ? (type as PageSignal)
            : document.visibilityState === 'visible'
              ? 'visible'
              : 'hidden',
        )
      for (const type of PAGE_EVENTS) window.addEventListener(type, heard)
      return () => {
        for (const type of PAGE_EVENTS) window.removeEventListener(type, heard)
      }
    },
    now: () => Date.now(),
    setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
    logError: (message, error) => console.error(message, error),
    logWarning: (message) => console.warn(message),
    closeWindow: () => window.close(),
    // A browser that cannot open windows (jsdom, some embedded views) answers undefined: blocked, as null says.
    openWindow: (url, target, features) => window.open(url, target, features) ?? null,
    windowFrame: () => ({
      x: window.screenX,
      y: window.screenY,
      width: window.outerWidth,
      height: window.outerHeight,
    }),
    onMessage: (listener) => {
      const onMessage = (event: MessageEvent) => listener(event)
      window.addEventListener('message', onMessage)
      return () => window.removeEventListener('message', onMessage)
    },
    postToOpener: (message, origin) => {
      const opener = window.opener as Window | null
      // Only delivered if the opener is at `origin`: the browser checks, and drops it otherwise.
      opener?.postMessage(message, origin)
    },
  }
}

/**
 * `localStorage`, or, where the browser refuses it (storage blocked, some sandboxed frames), a
 * storage that lives as long as the page: the session then works in this tab and is not kept.
 */
function pageStorage(): Storage {
  try {
    return window.localStorage
  } catch {
    return new PageLifetimeStorage()
  }
}

/** `sessionStorage`, or `undefined` where the browser refuses it. */
function tabStorage(): Storage | undefined {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
}

/** Why sign-in cannot start where the browser refuses `localStorage`. */
export const STORAGE_BLOCKED =
  'Sign-in needs localStorage, which this browser blocks for this page (allow this site to store data, or open ' +
  'the app in a tab of its own)'

/** A `Storage` that forgets everything when the page goes: what the session runs on where `localStorage` is refused. */
export class PageLifetimeStorage implements Storage {
  readonly #items = new Map<string, string>()
  get length(): number {
    return this.#items.size
  }
  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null
  }
  getItem(key: string): string | null {
    return this.#items.get(key) ?? null
  }
  setItem(key: string, value: string): void {
    this.#items.set(key, String(value))
  }
  removeItem(key: string): void {
    this.#items.delete(key)
  }
  clear(): void {
    this.#items.clear()
  }
}

/** The longest `afterPaint` waits: a page that gets no frames (a window the browser does not draw) still goes on. */
export const AFTER_PAINT_LIMIT_MS = 100

/**
 * Runs `run` once the page has painted what it shows now, so work that can wait (the balance calls
 * after a sign-in) never delays that paint; soon (a microtask) where nothing is painted (a server,
 * a hidden tab), and after {@link AFTER_PAINT_LIMIT_MS} at the latest.
 */
export function afterPaint(run: () => void): void {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState !== 'visible') return queueMicrotask(run)
  let done = false
  const once = () => {
    if (done) return
    done = true
    clearTimeout(limit)
    run()
  }
  const limit = setTimeout(once, AFTER_PAINT_LIMIT_MS)
  // A frame's callbacks run before it is painted, and its paint may be presented after the next task: waiting
  // for the next frame's callback, then a message posted from it, puts `run` after the page was on screen.
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        channel.port1.close()
        once()
      }
      channel.port2.postMessage(null)
    }),
  )
}
