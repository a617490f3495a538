// Node 25 and later define `localStorage` and `sessionStorage` on the global object, as a getter that
// reads `undefined` unless Node started with `--localstorage-file`. vitest 4's jsdom environment keeps
// a global that is already there, so jsdom's own Storage never replaces it (vitest-dev/vitest#8757;
// vitest 5 installs jsdom's). Put jsdom's back: a no-op on Node 24 and earlier, on vitest 5, and in Node.
const { jsdom } = globalThis as { jsdom?: { window: Pick<Window, 'localStorage' | 'sessionStorage'> } }
if (jsdom !== undefined && typeof Object.getOwnPropertyDescriptor(globalThis, 'localStorage')?.get === 'function') {
  for (const name of ['localStorage', 'sessionStorage'] as const)
    Object.defineProperty(globalThis, name, { value: jsdom.window[name], configurable: true, writable: true })
}
