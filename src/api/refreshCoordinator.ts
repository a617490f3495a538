import { Mutex } from 'async-mutex'

import { REFRESH_TIMEOUT_MS } from '../config'
import { EchoError } from '../errors'
import { abortable, withTimeout } from './abortable'
import type { RefreshCause, TokenProvider } from './tokenProvider'

export interface RefreshCoordinatorOptions {
  /**
   * How long one refresh may take before every waiter fails with a `NETWORK_ERROR` (the server
   * could not be reached in time). Defaults to 10 000 ms; `Infinity` for a provider that keeps its
   * own deadline.
   */
  refreshTimeoutMs?: number
}

// Keyed by the caller's own provider object and weakly held: nothing here outlives it, and two
// stores (each with its own session and provider) never meet.
const coordinatorsByProvider = new WeakMap<TokenProvider, RefreshCoordinator>()

interface RefreshRecord {
  /** The token the refresh replaced. */
  from: string | null
  result: Promise<string>
  settled: boolean
  /** It failed without reaching the server (`NETWORK_ERROR`): an answer only for those who waited on it. */
  unreached: boolean
}

/**
 * Makes every refresh of one token source a single shared one.
 *
 * The first caller that finds its token rejected refreshes under the mutex; callers that were
 * rejected with the same token wait for that refresh and share its outcome, success or failure;
 * a caller whose token has already been replaced gets the new one at once. A refresh that could
 * not reach the server (it rejected with a `NETWORK_ERROR`) is shared only by the callers that were
 * waiting while it ran: the next caller tries again. It is itself a `TokenProvider`, so everything
 * built on it (EchoClient, createEchoFetch, the router) shares one refresh.
 * @internal
 */
export class RefreshCoordinator implements TokenProvider {
  readonly #mutex = new Mutex()
  readonly #tokens: TokenProvider
  readonly #timeoutMs: number
  #lastRefresh: RefreshRecord | undefined

  constructor(tokens: TokenProvider, { refreshTimeoutMs = REFRESH_TIMEOUT_MS }: RefreshCoordinatorOptions = {}) {
    this.#tokens = tokens
    this.#timeoutMs = refreshTimeoutMs
  }

  /**
   * The coordinator of `tokens`: itself if it is one, else the one made for that same provider
   * object before. So an `EchoClient`, a router and a `createEchoFetch` built on one provider
   * share one refresh: two refreshes at once would present the same rotating refresh token twice.
   */
  static for(tokens: TokenProvider, options?: RefreshCoordinatorOptions): RefreshCoordinator {
    if (tokens instanceof RefreshCoordinator) return tokens
    let coordinator = coordinatorsByProvider.get(tokens)
    if (coordinator === undefined)
      coordinatorsByProvider.set(tokens, (coordinator = new RefreshCoordinator(tokens, options)))
    return coordinator
  }

  get isRefreshing(): boolean {
    return this.#mutex.isLocked()
  }

  getAccessToken(): Promise<string | null> {
    return this.#tokens.getAccessToken()
  }

  /** A refresh through the coordinator, as if the current token had just been rejected; `cause` says why. */
  async refreshToken(cause?: RefreshCause): Promise<string> {
    return this.tokenAfter(await this.#tokens.getAccessToken(), undefined, cause)
  }

  /** Resolves when no refresh is running, so a request never leaves with a token being replaced. */
  waitForIdle(signal?: AbortSignal): Promise<void> {
    return this.#mutex.isLocked() ? abortable(this.#mutex.waitForUnlock(), signal) : Promise.resolve()
  }

  /**
   * A token newer than `staleToken`, the one a server just rejected: refreshes only if nobody has
   * replaced it yet. An aborted caller stops waiting and never starts a refresh. `cause`, why it was
   * asked for, goes to the provider's `refreshToken` if this call starts the refresh.
   */
  tokenAfter(staleToken: string | null, signal?: AbortSignal, cause?: RefreshCause): Promise<string> {
    const knownOnArrival = this.#lastRefresh
    const runningOnArrival = knownOnArrival !== undefined && !knownOnArrival.settled
    const turn = this.#mutex.runExclusive(async () => {
      const current = await this.#tokens.getAccessToken()
      if (current !== null && current !== staleToken) return current
      const last = this.#lastRefresh
      // Callers rejected with the same token share one outcome: a failed refresh is not tried again
      // per caller. One that could not reach the server answers only for those who waited on it.
      const answersThisCaller = last !== undefined && (!last.unreached || last !== knownOnArrival || runningOnArrival)
      if (last?.from === staleToken && answersThisCaller) return last.result
      if (signal?.aborted) throw signal.reason
      const record: RefreshRecord = {
        from: staleToken,
        result: this.#refresh(staleToken, cause),
        settled: false,
        unreached: false,
      }
      record.result.then(
        () => (record.settled = true),
        (error: unknown) =>
          Object.assign(record, {
            settled: true,
            unreached: error instanceof EchoError && error.code === 'NETWORK_ERROR',
          }),
      )
      this.#lastRefresh = record
      return record.result
    })
    return abortable(turn, signal)
  }

  async #refresh(staleToken: string | null, cause: RefreshCause | undefined): Promise<string> {
    try {
      const refreshing = Promise.resolve().then(() => this.#tokens.refreshToken(cause))
      const returned = Number.isFinite(this.#timeoutMs)
        ? await withTimeout(refreshing, this.#timeoutMs, timedOut)
        : await refreshing
      const fresh = typeof returned === 'string' && returned !== '' ? returned : await this.#tokens.getAccessToken()
      if (fresh === null || fresh === staleToken) throw new Error('Silent renew did not yield a new access token')
      return fresh
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error))
      this.#tokens.onRefreshError?.(failure)
      throw failure
    }
  }
}

/** A refresh that has not answered in time could not reach the server: a `NETWORK_ERROR`. */
function timedOut(ms: number): EchoError {
  return new EchoError({
    code: 'NETWORK_ERROR',
    reason: 'refresh-timeout',
    message: `Token refresh timed out after ${ms / 1000} ${ms === 1000 ? 'second' : 'seconds'}`,
  })
}
