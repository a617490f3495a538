import type { Dispatch, UnknownAction } from '@reduxjs/toolkit'

import { headersOf } from '../../api/tokenOrigins'
import type { FetchFunction } from '../../api/tokenProvider'
import type { EchoEnvironment } from '../../auth/environment'
import type { ResolvedEchoConfig } from '../../config'
import { ECHO_PATHS, REFUSED_BY_ECHO } from '../../echoPaths'
import { EchoRuntime, type RuntimeStore } from '../EchoRuntime'
import { balanceAskedAgain } from '../money/balanceAskedAgain'
import { DEV_MOMENT } from './moments'

// The moments an app must handle, played on demand in development (docs/api.md, "Moments on demand"):
// actions a developer dispatches from Redux DevTools' dispatcher or from a test. Each is played on the
// session's own fetch, so the real session and the real components take the same path a real fault
// takes: a token Echo refuses, a refresh token Echo refuses, a 402, no network, a low balance, credits
// arriving. Only development builds have this file: production code never reaches it.

/** What a moment acts on: the runtime's own ways to refresh, to ask for the balance and to wait for a top-up. */
export interface MomentStage {
  refresh(): void
  isRunning(): boolean
  askBalance(): void
  checkoutPaid(): void
}

/** Each runtime's moments, kept for its life (a development build's runtimes only). */
const momentsOfRuntime = new WeakMap<EchoRuntime, DevMoments>()

/** A store's runtime whose fetch plays the moments asked of it (development builds only). */
export function runtimeWithMoments(
  store: RuntimeStore,
  config: ResolvedEchoConfig,
  environment: EchoEnvironment,
): EchoRuntime {
  const moments = new DevMoments(environment, config)
  const runtime = new EchoRuntime(store, config, { ...environment, fetch: moments.through(environment.fetch) })
  momentsOfRuntime.set(runtime, moments)
  return runtime
}

/** Plays moment `action` on `runtime`; a stopped runtime plays none, and says so. */
export function playMoment(runtime: EchoRuntime, action: UnknownAction, dispatch: Dispatch): void {
  if (!runtime.isRunning)
    return runtime.environment.logWarning(`echo-rtk: ${action.type} not played: the store's session is stopped`)
  momentsOfRuntime.get(runtime)?.play(action, stageOf(runtime, dispatch))
}

/** The user signed out: the moments asked for and not played yet, and the credits of a top-up played, go. */
export function forgetMoments(runtime: EchoRuntime): void {
  momentsOfRuntime.get(runtime)?.forget()
}

/** What a moment acts on, from the store's runtime: its session's refresh, the balance, a top-up waited for. */
function stageOf(runtime: EchoRuntime, dispatch: Dispatch): MomentStage {
  return {
    refresh: () =>
      void runtime
        .withSession((session) =>
          // The server-held session's page has no token to refresh: its server renews it.
          'coordinator' in session ? session.coordinator.refreshToken({ by: 'dev-moment' }) : undefined,
        )
        .catch(() => undefined),
    isRunning: () => runtime.isRunning,
    askBalance: () => dispatch(balanceAskedAgain({ by: 'dev-moment' })),
    checkoutPaid: () => runtime.checkoutPaid(),
  }
}

/** The moments asked for, played on the fetch under the session and the billed calls. */
export class DevMoments {
  readonly #env: EchoEnvironment
  readonly #config: ResolvedEchoConfig
  #refuseToken = false
  #refuseRefresh = false
  #paymentRequired = false
  #offlineUntil = 0
  #lowBalance = { paid: false, free: false }
  #creditsAdded = 0
  /** The credits of a top-up played show from the top-up's second check (2 s), as credits that take a moment. */
  #creditsFrom = 0

  constructor(env: EchoEnvironment, config: ResolvedEchoConfig) {
    this.#env = env
    this.#config = config
  }

  /** Forgets every moment asked for and not played yet, and the credits of a top-up played (a sign-out). */
  forget(): void {
    this.#refuseToken = false
    this.#refuseRefresh = false
    this.#paymentRequired = false
    this.#lowBalance = { paid: false, free: false }
    this.#creditsAdded = 0
  }

  /** Plays `action`, one of {@link echoDevMoments}; says in the console what it did. */
  play(action: UnknownAction, stage: MomentStage): void {
    const name = action.type.slice(DEV_MOMENT.length)
    const payload = (action.payload ?? {}) as { seconds?: unknown; amount?: unknown }
    switch (name) {
      case 'expireAccessToken':
        this.#refuseToken = true
        break
      case 'endSessionAtNextRefresh':
        this.#refuseRefresh = true
        break
      case 'answerNextBilledCallWith402':
        this.#paymentRequired = true
        break
      case 'actOffline': {
        const seconds = positive(payload.seconds, 15)
        this.#offlineUntil = this.#env.now() + seconds * 1_000
        stage.refresh()
        // The browser's own signal that the network is back, which the session and RTK Query both hear; not
        // for a store stopped meanwhile, nor while the browser is really offline.
        const back = () => stage.isRunning() && globalThis.navigator?.onLine !== false
        this.#env.setTimeout(() => back() && globalThis.dispatchEvent?.(new Event('online')), seconds * 1_000)
        break
      }
      case 'showLowBalance':
        this.#lowBalance = { paid: true, free: true }
        stage.askBalance()
        break
      case 'playTopUpArriving':
        this.#creditsAdded += positive(payload.amount, 10)
        this.#creditsFrom = this.#env.now() + 1_000
        stage.checkoutPaid()
        break
      default:
        return this.#env.logWarning(
          `echo-rtk: ${action.type} is no moment echo-rtk can play (echoDevMoments lists them)`,
        )
    }
    this.#env.logWarning(`echo-rtk: playing ${name}, asked from Redux DevTools or a test (development only)`)
  }

  /** `fetch` with the moments asked for played on it. */
  through(fetch: FetchFunction): FetchFunction {
    return async (input, init = {}) => {
      // A relative address (the app's own server) is none of Echo's: read against a base that names no host.
      const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://relative.invalid')
      const { baseRouterUrl } = this.#config
      if (this.#env.now() < this.#offlineUntil)
        throw new TypeError('Failed to fetch (acting offline: a moment played from Redux DevTools)')
      if (this.#paymentRequired && url.href.startsWith(baseRouterUrl)) {
        this.#paymentRequired = false
        return Response.json({ error: 'Insufficient balance' }, { status: 402 })
      }
      let sent = init
      if (this.#refuseRefresh && url.href === this.#echoUrl(ECHO_PATHS.token) && init.body instanceof URLSearchParams) {
        if (init.body.get('grant_type') === 'refresh_token') {
          this.#refuseRefresh = false
          const body = new URLSearchParams(init.body)
          body.set('refresh_token', REFUSED_BY_ECHO)
          sent = { ...init, body }
        }
      }
      const headers = headersOf(input, init)
      if (this.#refuseToken && headers.has('Authorization')) {
        this.#refuseToken = false
        headers.set('Authorization', `Bearer ${REFUSED_BY_ECHO}`)
        sent = { ...sent, headers }
      }
      const response = await fetch(input, sent)
      return this.#balanceAnswer(url, response)
    }
  }

  /** The address of Echo's `path`, as `URL` writes it. */
  #echoUrl(path: string): string {
    return new URL(`${this.#config.apiUrl}${path}`).href
  }

  /** Echo's balance answers, with a low balance or the credits of a top-up played on them. */
  async #balanceAnswer(url: URL, response: Response): Promise<Response> {
    const address = url.origin + url.pathname
    const paid = address === this.#echoUrl(ECHO_PATHS.balance)
    if (!response.ok || (!paid && address !== this.#echoUrl(ECHO_PATHS.freeBalance))) return response
    const low = paid ? this.#lowBalance.paid : this.#lowBalance.free
    const credits = paid && this.#env.now() >= this.#creditsFrom ? this.#creditsAdded : 0
    if (!low && credits === 0) return response
    const answer = (await response.json()) as Record<string, unknown> & { userSpendInfo?: Record<string, unknown> }
    if (paid) {
      this.#lowBalance.paid = false
      const balance = low ? this.#config.lowBalanceAt / 2 : Number(answer.balance) + credits
      return Response.json({ ...answer, balance })
    }
    this.#lowBalance.free = false
    const userSpendInfo = { ...answer.userSpendInfo, amountLeft: 0 }
    return Response.json({ ...answer, userSpendInfo })
  }
}

function positive(value: unknown, otherwise: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : otherwise
}
