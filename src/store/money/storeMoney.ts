import type { Dispatch, Middleware } from '@reduxjs/toolkit'

import { afterPaint, type EchoEnvironment } from '../../auth/environment'
import type { ResolvedEchoConfig } from '../../config'
import type { EchoRootState } from '../echoReducer'
import { createEchoListeners } from '../run'
import { BalanceFollower } from './balanceFollower'
import { SpendWatch } from './spendWatch'
import { TopUpWatch } from './topUpWatch'

/** The store the money features serve, and how they put the store's listener middleware in its chain. */
export interface MoneyStore {
  dispatch: Dispatch
  getState: () => unknown
  /** Puts `middleware` in the store's chain after echo-rtk's session middleware, in the place of the last runtime's. */
  listenWith(middleware: Middleware): void
}

/**
 * A store's money, watched for its user: the balance kept loaded, the spend and the daily limit, the
 * top-up confirmed. Each start of the
 * store's runtime is a run of the store's listener middleware (run.ts); the runtime's stop ends it.
 */
export class StoreMoney {
  readonly balance: BalanceFollower
  readonly spend: SpendWatch
  readonly topUp: TopUpWatch
  readonly #listeners: ReturnType<typeof createEchoListeners>

  constructor(store: MoneyStore, environment: EchoEnvironment) {
    const getState = store.getState as () => EchoRootState
    this.balance = new BalanceFollower(store.dispatch, getState, environment.afterPaint ?? afterPaint)
    this.spend = new SpendWatch(store.dispatch, getState)
    this.topUp = new TopUpWatch(store.dispatch, getState)
    this.#listeners = createEchoListeners((message, error) => environment.logError(message, error))
    store.listenWith(this.#listeners.middleware)
  }

  /** Watches for the run `controller` ends, in this browser with this config. */
  start(controller: AbortController, environment: EchoEnvironment, config: ResolvedEchoConfig): void {
    const run = this.#listeners.run(controller, environment)
    this.balance.start(run, config.appId)
    this.spend.start(run, environment, config)
    this.topUp.start(run, environment, config)
  }
}
