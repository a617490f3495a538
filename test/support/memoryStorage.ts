import { PageLifetimeStorage } from '../../src/auth/environment'

/** A Storage in memory holding `entries`: the session's own stand-in where the browser refuses storage. */
export function memoryStorage(entries: Record<string, string> = {}): Storage {
  const storage = new PageLifetimeStorage()
  for (const [key, value] of Object.entries(entries)) storage.setItem(key, value)
  return storage
}
