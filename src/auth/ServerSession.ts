import type { AuthorizedSend } from '../api/authorizedFetch'
import {
  ECHO_REASONS,
  SERVER_ROUTES,
  serverSessionChannel,
  SIGN_IN_ERROR_PARAMS,
  type ServerSessionAnswer,
} from '../api/serverRoutes'
import { assertTokenOrigin } from '../api/tokenOrigins'
import type { FetchFunction } from '../api/tokenProvider'
import type { EchoUser } from '../api/userInfo'
import type { ResolvedEchoConfig } from '../config'
import { EchoError } from '../errors'
import type { InterruptionCause, SignOutCause } from './causes'
import { isWake, type EchoEnvironment, type PopupWindow } from './environment'
import { pendingServerSignInKey, type FirstPaint } from './firstPaint'
import { openSignInWindow, POPUP_CLOSED_POLL_MS, POPUP_TIMEOUT_MS, popupError } from './popup'
import { refusedSignIn, SESSION_ENDED, sessionStopped } from './sessionErrors'
import { reconnectDelayMs, type SessionReporter, type SignInSource } from './sessionState'
import { returnToProblem, type SignInOptions, type SignInReturnTo } from './signInOptions'

/** Where the server-held session is, as the page knows it: who is signed in, never a token. */
type ServerSessionState =
  /** Not asked yet, or the app's server not reached yet: the store is `loading`. */
  | { readonly phase: 'idle' }
  | { readonly phase: 'signedOut' }
  | { readonly phase: 'signingIn' }
  /** `failures`: checks in a row that found Echo (or the app's server) out of reach; reconnecting while above 0. */
  | { readonly phase: 'signedIn'; readonly user: EchoUser; readonly failures: number }

/** What the app handed to a sign-in, kept while the page is away with the server (`useEcho().returnTo` after it). */
interface PendingSignIn {
  returnTo?: SignInReturnTo | undefined
  startedAt: number
}

/** A sign-in left from this page more than this long ago is not this page's any more. */
const PENDING_SIGN_IN_MS = 10 * 60_000

/** What tabs say to each other in server mode: who signed in or out, never a token. */
type ServerTabMessage =
  | { type: 'signed-in' }
  | { type: 'signed-out' }
  | { type: 'ended' }
  | { type: 'sign-in-failed'; error: string; description: string | null }

/**
 * The page's side of the server-held session (`EchoConfig.session: 'server'`): the app's server
 * signs the user in and keeps their tokens in an HttpOnly cookie; this page holds no token at all.
 * It asks the server who is signed in (`GET session`), sends Echo's calls to the server's routes
 * (the cookie goes with them, the server adds the token), and follows what the answers say: the
 * session ended (Echo refused the renewal), or Echo out of reach (still signed in, reconnecting).
 * Sign-in leaves for the server's `signin` route, in the page or in a window of its own. The tabs
 * hear of sign-ins and sign-outs on a channel that carries no token.
 */
export class ServerSession {
  readonly config: ResolvedEchoConfig
  /** Where Echo's API calls go: the app's own server. */
  readonly apiBase: string
  /** The environment's `fetch` while the session runs; stopped, it sends nothing (`session-stopped`). */
  readonly fetch: FetchFunction
  /** The session's send for the RTK Query baseQuery and the router: the cookie goes, the answer is followed. */
  readonly sendAuthorized: AuthorizedSend
  readonly isHandingOver = false
  readonly signInCallback: Promise<void> = Promise.resolve()
  readonly #env: EchoEnvironment
  readonly #report: SessionReporter
  readonly #routes: string
  #state: ServerSessionState = { phase: 'idle' }
  #running = false
  #started = false
  #timer: unknown
  #channel: BroadcastChannel | undefined
  #stopWaking: (() => void) | undefined
  /** The check under way: a second one waits for it. */
  #checking: Promise<void> | undefined
  #popup: { window: PopupWindow; done: Promise<void> } | undefined

  constructor(config: ResolvedEchoConfig, report: SessionReporter, env: EchoEnvironment) {
    this.config = config
    this.#env = env
    this.#report = report
    this.#routes = config.serverUrl
    this.apiBase = config.serverUrl
    this.fetch = (input, init) =>
      this.#running ? env.fetch(input, init) : Promise.reject(sessionStopped('sending a request'))
    this.sendAuthorized = this.sendOver(this.fetch)
  }

  /**
   * A send over `fetch` (the store's billed fetch, say) as the session makes its own: nothing leaves
   * while nobody is signed in (`Not authenticated`, as in browser mode), and what the answer says of
   * the session is acted on.
   */
  sendOver(fetch: FetchFunction): AuthorizedSend {
    return async (input, init) => {
      await this.#checking
      if (this.#state.phase !== 'signedIn')
        throw new EchoError({ code: 'UNKNOWN_ERROR', reason: 'not-authenticated', message: 'Not authenticated' })
      const response = await fetch(input, init)
      this.#follow(response)
      return { response }
    }
  }

  /**
   * The session's fetch for model clients (`useEchoFetch()`): requests go only to this page's own
   * origin (the server's routes, and the app's own that `echo.route` serves) and the app's
   * `serverOrigins`; anything else (a client left on its own default host) is refused, nothing sent.
   */
  echoFetchOver(fetch: FetchFunction): FetchFunction {
    const send = this.sendOver(fetch)
    const origins = [new URL(this.#routes).origin, ...this.config.serverOrigins]
    return async (input, init) => {
      assertTokenOrigin(input, origins, `${this.#routes}/${SERVER_ROUTES.router}`)
      return (await send(input, init)).response
    }
  }

  #dispatch(next: ServerSessionState, report: () => void): void {
    this.#state = next
    report()
  }

  /**
   * Listens to the other tabs and the network and, the first time, asks the server who is signed in
   * (and shows a sign-in that came back refused); again after `stop()`, nothing twice. `told`: the
   * server's answer the store was given before this code had loaded (`firstPaint.ts`), taken as said.
   */
  start(told?: FirstPaint): void {
    this.#running = true
    if (this.#channel === undefined) {
      this.#channel = this.#env.openChannel?.(serverSessionChannel(this.config.appId))
      this.#channel?.addEventListener('message', this.#onTabMessage)
    }
    this.#stopWaking ??= this.#env.onPageSignal((signal) => isWake(signal) && this.#onWake())
    if (this.#started) return this.#scheduleCheck()
    this.#started = true
    if (this.#takeRefusedSignIn()) return
    if (told?.told === 'signedIn') this.#state = { phase: 'signedIn', user: told.snapshot.user, failures: 0 }
    else if (told?.told === 'signedOut') this.#state = { phase: 'signedOut' }
    else void this.#check('storage')
  }

  stop(): void {
    this.#running = false
    this.#env.clearTimeout(this.#timer)
    this.#channel?.removeEventListener('message', this.#onTabMessage)
    this.#channel?.close()
    this.#channel = undefined
    this.#stopWaking?.()
    this.#stopWaking = undefined
  }

  /**
   * Signs in through the app's server: leaving the page for its `signin` route, which comes back to
   * this very page (its path, query and hash), or in a window of its own that keeps the page. The
   * app's `returnTo` waits in storage meanwhile, and comes back as `useEcho().returnTo`.
   */
  signIn(options: SignInOptions = {}): Promise<void> {
    if (!this.#running) return Promise.reject(sessionStopped('starting sign-in'))
    if (this.#popup !== undefined) {
      this.#popup.window.focus()
      return this.#popup.done
    }
    const { navigate = (url) => this.#env.navigate(url), popup = this.config.signIn === 'popup', returnTo } = options
    const problem = returnToProblem(returnTo)
    if (problem !== null)
      return Promise.reject(
        new EchoError({ code: 'UNKNOWN_ERROR', reason: 'bad-argument', message: problem, action: 'starting sign-in' }),
      )
    const window = popup === false ? null : openSignInWindow(this.#env)
    if (window === null && popup === 'only') {
      this.#dispatch(this.#state, () => this.#report.signInFailed(popupError('popup-blocked').toJSON()))
      return Promise.reject(popupError('popup-blocked'))
    }
    this.#dispatch(this.#state.phase === 'signedIn' ? this.#state : { phase: 'signingIn' }, () =>
      this.#report.signInStarted(window !== null),
    )
    this.#keepPendingSignIn({ returnTo, startedAt: this.#env.now() })
    const url = this.#signInUrl(window !== null)
    if (window === null) {
      navigate(url)
      return Promise.resolve()
    }
    window.location.replace(url)
    const done = this.#signInInPopup(window).finally(() => (this.#popup = undefined))
    this.#popup = { window, done }
    return done
  }

  /** For a billed call made while nobody is signed in, with `EchoConfig.signInOnDemand`: the sign-in it waits for. */
  signInForCall(): Promise<void> | undefined {
    if (this.#state.phase === 'signedIn' || !this.config.signInOnDemand) return undefined
    return this.signIn({ popup: 'only' })
  }

  /** Signs out on the server (the cookie goes) and in the app's other tabs. */
  async signOut(): Promise<void> {
    if (!this.#running) throw sessionStopped('signing out')
    const response = await this.fetch(this.#route(SERVER_ROUTES.signOut), { method: 'POST' }).catch(
      (error: unknown) => {
        throw EchoError.from(error, 'signing out')
      },
    )
    if (!response.ok) throw await EchoError.fromResponse(response, { action: 'signing out' })
    this.#tell({ type: 'signed-out' })
    this.#signedOut({ by: 'user' })
  }

  /** Always `null`: in server mode the page holds no token (the app's server adds it to each call). */
  getToken(): Promise<string | null> {
    return Promise.resolve(null)
  }

  /**
   * Asks the server who is signed in (renewing an expired token there first), and tells the store
   * what changed. Echo out of reach keeps the user signed in, reconnecting; the app's server out of
   * reach at start-up keeps the store loading, and both are tried again on a backoff, when the
   * browser comes back online and when the page is shown again.
   */
  #check(arrivedBy: SignInSource): Promise<void> {
    return (this.#checking ??= this.#askServer(arrivedBy).finally(() => (this.#checking = undefined)))
  }

  async #askServer(arrivedBy: SignInSource): Promise<void> {
    let answer: ServerSessionAnswer
    let reason: string | null
    try {
      const response = await this.fetch(this.#route(SERVER_ROUTES.session), { headers: { Accept: 'application/json' } })
      if (!response.ok) return this.#outOfReach({ by: 'status', status: response.status })
      reason = response.headers.get('x-echo-reason')
      answer = (await response.json()) as ServerSessionAnswer
    } catch (error) {
      if (!this.#running) return
      return this.#outOfReach({ by: 'offline', detail: error instanceof Error ? error.message : String(error) })
    }
    const user = answer.user
    if (user === null) {
      if (answer.reason === ECHO_REASONS.sessionEnded) return this.#ended()
      if (this.#state.phase === 'signedIn') return this.#signedOut({ by: 'tab' })
      if (this.#state.phase === 'idle') this.#signedOut({ by: 'nothing-stored' })
      return
    }
    const pending = this.#takePendingSignIn()
    const state = this.#state
    if (state.phase !== 'signedIn' || state.user.id !== user.id || pending !== null)
      this.#dispatch({ phase: 'signedIn', user, failures: 0 }, () =>
        this.#report.signedIn({
          user,
          accessToken: null,
          expiresAt: null,
          arrivedBy: pending === null ? arrivedBy : 'callback',
          ...(pending?.returnTo === undefined ? {} : { returnTo: pending.returnTo }),
        }),
      )
    if (reason === ECHO_REASONS.echoUnreachable) return this.#outOfReach({ by: 'status', status: 503 })
    const now = this.#state
    if (now.phase === 'signedIn' && now.failures > 0)
      this.#dispatch({ ...now, failures: 0 }, () =>
        this.#report.tokenRefreshed({ accessToken: null, expiresAt: null }, { by: 'echo' }),
      )
  }

  /** Echo (or the app's server) could not be reached: a signed-in user stays signed in, and the check comes again. */
  #outOfReach(cause: InterruptionCause): void {
    const state = this.#state
    if (state.phase === 'signedIn')
      this.#dispatch({ ...state, failures: state.failures + 1 }, () => this.#report.tokenRefreshInterrupted(cause))
    this.#scheduleCheck()
  }

  /** The next check while out of reach, on the session's backoff; none while all is well. */
  #scheduleCheck(): void {
    this.#env.clearTimeout(this.#timer)
    const state = this.#state
    const failures = state.phase === 'signedIn' ? state.failures : state.phase === 'idle' ? 1 : 0
    if (!this.#running || failures === 0) return
    this.#timer = this.#env.setTimeout(() => void this.#check('storage'), reconnectDelayMs(failures))
  }

  #onWake(): void {
    if (this.#state.phase === 'signedIn' || this.#state.phase === 'idle') void this.#check('storage')
  }

  /** What an answer of the server's says of the session: ended, signed out elsewhere, or Echo out of reach. */
  #follow(response: Response): void {
    const reason = response.headers.get('x-echo-reason')
    if (reason === ECHO_REASONS.sessionEnded) return this.#ended()
    if (reason === ECHO_REASONS.notSignedIn && this.#state.phase === 'signedIn') return this.#signedOut({ by: 'tab' })
    if (reason === ECHO_REASONS.echoUnreachable) return this.#outOfReach({ by: 'status', status: response.status })
    const state = this.#state
    if (response.ok && state.phase === 'signedIn' && state.failures > 0) void this.#check('storage')
  }

  /** Echo refused to renew the session: signed out here with the session-ended words, and in every tab. */
  #ended(): void {
    if (this.#state.phase === 'signedOut') return
    this.#tell({ type: 'ended' })
    this.#signedOut({ by: 'echo', error: 'session-ended' }, SESSION_ENDED)
  }

  #signedOut(cause: SignOutCause, ended?: typeof SESSION_ENDED): void {
    this.#env.clearTimeout(this.#timer)
    this.#dispatch({ phase: 'signedOut' }, () => this.#report.signedOut(cause, ended))
  }

  readonly #onTabMessage = ({ data }: MessageEvent<unknown>): void => {
    const { type } = (data ?? {}) as Partial<ServerTabMessage>
    if (type === 'signed-in') return void this.#check('tab')
    if (type === 'ended' && this.#state.phase !== 'signedOut')
      return this.#signedOut({ by: 'tab-ended' }, SESSION_ENDED)
    if (type === 'signed-out' && this.#state.phase === 'signedIn') return this.#signedOut({ by: 'tab' })
  }

  #tell(message: ServerTabMessage): void {
    this.#channel?.postMessage(message)
  }

  /**
   * The sign-in in `window`: the server's `signin` route there, then its page that tells the tabs and
   * closes. Done when the server says someone is signed in; closed first, the sign-in ends with
   * nobody signed in and nothing to show (the user's choice).
   */
  #signInInPopup(window: PopupWindow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let polling: unknown
      const channel = this.#env.openChannel?.(serverSessionChannel(this.config.appId))
      const finish = (settle: () => void) => {
        this.#env.clearTimeout(polling)
        this.#env.clearTimeout(timeout)
        channel?.close()
        settle()
      }
      const signedInOrNot = async () => {
        await this.#check('callback')
        if (this.#state.phase === 'signedIn') return finish(resolve)
        this.#dispatch({ phase: 'signedOut' }, () => this.#report.signedOut({ by: 'window-closed' }))
        finish(() => reject(popupError('popup-closed')))
      }
      if (channel !== undefined)
        channel.onmessage = ({ data }: MessageEvent<unknown>) => {
          const message = (data ?? {}) as Partial<ServerTabMessage>
          if (message.type === 'signed-in') void signedInOrNot()
          if (message.type === 'sign-in-failed') {
            const refused = refusedSignIn({ error: String(message.error), description: message.description ?? null })
            this.#takePendingSignIn()
            this.#dispatch({ phase: 'signedOut' }, () => this.#report.signInFailed(refused.toJSON(), 'callback'))
            finish(() => reject(refused))
          }
        }
      const timeout = this.#env.setTimeout(() => {
        if (!window.closed) window.close()
        finish(() => reject(popupError('popup-timeout')))
      }, POPUP_TIMEOUT_MS)
      const poll = () => {
        if (window.closed) return void signedInOrNot()
        polling = this.#env.setTimeout(poll, POPUP_CLOSED_POLL_MS)
      }
      polling = this.#env.setTimeout(poll, POPUP_CLOSED_POLL_MS)
    })
  }

  /**
   * A sign-in this tab left for that came back refused (the server put Echo's error in the address
   * bar): shown, and taken out of it. Only this tab's own: words in a link that came from elsewhere
   * are never shown as Echo's.
   */
  #takeRefusedSignIn(): boolean {
    const url = new URL(this.#env.location.href)
    const error = url.searchParams.get(SIGN_IN_ERROR_PARAMS.error)
    if (error === null || this.#tabStorage.getItem(this.#pendingKey) === null) return false
    const description = url.searchParams.get(SIGN_IN_ERROR_PARAMS.description)
    url.searchParams.delete(SIGN_IN_ERROR_PARAMS.error)
    url.searchParams.delete(SIGN_IN_ERROR_PARAMS.description)
    this.#env.history.replaceState(this.#env.history.state, '', url.href)
    this.#takePendingSignIn()
    const refused = refusedSignIn({ error, description }).toJSON()
    this.#dispatch({ phase: 'signedOut' }, () => this.#report.signInFailed(refused, 'callback'))
    return true
  }

  #signInUrl(popup: boolean): string {
    const { pathname, search, hash } = new URL(this.#env.location.href)
    const url = new URL(this.#route(SERVER_ROUTES.signIn))
    url.searchParams.set('returnTo', `${pathname}${search}${hash}`)
    if (popup) url.searchParams.set('popup', '1')
    return url.href
  }

  #route(name: string): string {
    return `${this.#routes}/${name}`
  }

  /** This tab's own storage: the sign-in it left for is this tab's, not another tab's to take. */
  get #tabStorage(): Storage {
    return this.#env.tabStorage ?? this.#env.storage
  }

  get #pendingKey(): string {
    return pendingServerSignInKey(this.config.appId)
  }

  #keepPendingSignIn(pending: PendingSignIn): void {
    try {
      this.#tabStorage.setItem(this.#pendingKey, JSON.stringify(pending))
    } catch {
      // Storage refused: the sign-in goes on; only the app's returnTo is not given back.
    }
  }

  /** The sign-in this page left for, if it is recent, taken out of storage (it is given back once). */
  #takePendingSignIn(): PendingSignIn | null {
    const text = this.#tabStorage.getItem(this.#pendingKey)
    if (text === null) return null
    this.#tabStorage.removeItem(this.#pendingKey)
    try {
      const pending = JSON.parse(text) as PendingSignIn
      return typeof pending.startedAt === 'number' && this.#env.now() - pending.startedAt < PENDING_SIGN_IN_MS
        ? pending
        : null
    } catch {
      return null
    }
  }
}
