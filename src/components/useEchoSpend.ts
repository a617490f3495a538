import { useMemo } from 'react'
import { shallowEqual } from 'react-redux'

import { useEchoSelector } from '../api/query/echoReduxContext'
import type { EchoRootState } from '../store/echoReducer'
import type { EchoCharge } from '../store/money/moneySlice'
import { selectDailyLimit, selectIsSpendLimitReached } from '../store/selectors'
import { setDailyLimit } from '../store/thunks'
import { useEchoContext } from './useEcho'

/** What {@link useEchoSpend} returns. */
export interface UseEchoSpendResult {
  /** Spent in this app today (the user's local day), in US dollars, the same in every tab; `null` until read. */
  spentToday: number | null
  /** Spent in this app since this page signed in. */
  spentThisSession: number
  /** The last answer's cost; calls that ran at the same time are one charge (`calls` says how many). */
  lastCharge: EchoCharge | null
  /** The daily limit in force: the user's own, else `EchoConfig.dailyLimit`; `null` for none. */
  dailyLimit: number | null
  /** Today's spend reached the limit: billed calls are refused (`reason: 'spend-limit'`) until it is raised. */
  isSpendLimitReached: boolean
  /** Sets the user's own daily limit for this app (`null`: none), kept in this browser for them. */
  setDailyLimit: (limit: number | null) => Promise<void>
}

const selectSpend = (state: EchoRootState) => ({
  spentToday: state.echo.money.spentToday,
  spentThisSession: state.echo.money.spentThisSession,
  lastCharge: state.echo.money.lastCharge,
  dailyLimit: selectDailyLimit(state),
  isSpendLimitReached: selectIsSpendLimitReached(state),
})

/**
 * What the signed-in user spent in this app, as Echo charged it (paid balance and free tier
 * together), and their daily limit. Seen from the balance before and after the session's billed
 * calls: no request of its own.
 *
 * @example
 * const { spentToday, lastCharge } = useEchoSpend()
 */
export function useEchoSpend(): UseEchoSpendResult {
  const { store } = useEchoContext()
  const spend = useEchoSelector(selectSpend, shallowEqual)
  const set = useMemo(() => (limit: number | null) => store.dispatch(setDailyLimit(limit)), [store])
  return { ...spend, setDailyLimit: set }
}
