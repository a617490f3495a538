import { PageLifetimeStorage } from '../../src/auth/environment'

/** A Storage in memory holding `entries`: the session's own stand-in where the browser refuses storage. */
export function memoryStorage(entries: Record<string, string> = {}): Storage {
  const storage = new PageLifetimeStorage()
  for (const [key, value] of Object.entries(entries)) storage.setItem(key, value)
  return storage
}

/**
 * A Storage in memory that lasts, as the browser's `localStorage` does: not the session's page-lifetime
 * stand-in, so a sign-in may keep its PKCE state in it.
 */
export function lastingStorage(): Storage {
  const items = new PageLifetimeStorage()
  return {
    get length() {
      return items.length
    },
    key: (index) => items.key(index),
    getItem: (key) => items.getItem(key),
    setItem: (key, value) => items.setItem(key, value),
    removeItem: (key) => items.removeItem(key),
    clear: () => items.clear(),
  }
}
