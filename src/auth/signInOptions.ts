// What a sign-in may be asked for, and the check of `returnTo`: plain JSON that waits in storage
// with the sign-in's state while the page is away.

/** Options of a sign-in. */
export interface SignInOptions {
  /** Leaves for Echo's sign-in page at `url` instead of `window.location.assign(url)`. */
  navigate?: ((url: string) => void) | undefined
  /**
   * Signs in in a window of its own and keeps the page: `true` falls back to leaving the page where
   * the browser blocks the window, `'only'` rejects instead (`popup-blocked`), `false` leaves the
   * page. Defaults to `EchoConfig.signIn`. Call it from the click: a window opened later is blocked.
   */
  popup?: boolean | 'only' | undefined
  /**
   * A small value the app wants back after the sign-in (the draft the user was typing, where they
   * were): kept with the sign-in's state while the page is away, and given back once, as
   * `useEcho().returnTo`, when the sign-in completes. Plain JSON, at most 2,000 characters.
   */
  returnTo?: SignInReturnTo | undefined
}

/** A plain JSON value: what `returnTo` may hold. */
export type SignInReturnTo = string | number | boolean | null | SignInReturnTo[] | { [key: string]: SignInReturnTo }

/** The longest `returnTo`, as JSON: it waits in storage with the sign-in's state. */
export const RETURN_TO_LIMIT = 2_000

/** What is wrong with `value` as a `returnTo`, as a sentence, or `null` when it will come back as it went. */
export function returnToProblem(value: unknown): string | null {
  if (value === undefined) return null
  if (!isPlainJson(value))
    return (
      "signIn's returnTo must be plain JSON (text, finite numbers, true or false, null, lists and plain objects of " +
      `them), got ${Object.prototype.toString.call(value)}: it waits in storage while the page is away`
    )
  const length = JSON.stringify(value).length
  if (length > RETURN_TO_LIMIT)
    return (
      `signIn's returnTo is ${length} characters as JSON, over ${RETURN_TO_LIMIT}: keep the rest in the app ` +
      '(sessionStorage, say) and pass its key'
    )
  return null
}

function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(isPlainJson)
  if (typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return (prototype === Object.prototype || prototype === null) && Object.values(value).every(isPlainJson)
}
