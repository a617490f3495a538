// The moments an app must handle, as actions (docs/api.md, "Moments on demand"): what a developer dispatches
// from Redux DevTools' dispatcher or from a test. playMoments.ts plays them; a production build has no player.

/** The type every moment's action starts with. */
export const DEV_MOMENT = 'echo/dev/'

/**
 * The moments, as action creators: `echoDevToolsOptions.actionCreators` lists them in DevTools' dispatcher.
 *
 * @example
 * // In a test, or from DevTools' dispatcher: the next call meets a 401 and the one refresh.
 * store.dispatch(echoDevMoments.expireAccessToken())
 */
export const echoDevMoments = {
  /** Echo refuses the access token of the next call (a 401): the call meets the one refresh, and is sent again. */
  expireAccessToken: () => moment('expireAccessToken'),
  /** Echo refuses the next refresh, as when the refresh token was revoked: the session ends. */
  endSessionAtNextRefresh: () => moment('endSessionAtNextRefresh'),
  /** The next billed call is answered 402, as when the credits ran out. */
  answerNextBilledCallWith402: () => moment('answerNextBilledCallWith402'),
  /** Nothing reaches Echo for `seconds` (a refresh is tried at once), then the browser is back online. */
  actOffline: (seconds = 15) => moment('actOffline', { seconds }),
  /** The balance is asked again and answered at half of `lowBalanceAt`, with no free tier left. */
  showLowBalance: () => moment('showLowBalance'),
  /** A checkout paid for `amount` US dollars: the top-up is waited for, and the balance answers with it. */
  playTopUpArriving: (amount = 10) => moment('playTopUpArriving', { amount }),
}

/** A moment as its action; `payload` when it takes one. */
export type EchoDevMoment = {
  type: string
  payload?: { seconds?: number; amount?: number }
}

/** The stores a production build's moment has spoken to: each is told once. */
const toldInProduction = new WeakSet<object>()

/**
 * The action of moment `name`, in development. A production build plays no moment: there it is a thunk
 * that says so, once per store, and does nothing else (the store's middleware has no moments at all).
 */
function moment(name: string, payload?: EchoDevMoment['payload']): EchoDevMoment {
  const action: EchoDevMoment =
    payload === undefined ? { type: DEV_MOMENT + name } : { type: DEV_MOMENT + name, payload }
  if (process.env.NODE_ENV !== 'production') return action
  const sayOnce = (dispatch: object) => {
    if (toldInProduction.has(dispatch)) return
    toldInProduction.add(dispatch)
    console.warn(`echo-rtk: ${action.type} plays only in development builds`)
  }
  // A thunk, which the store's thunk middleware runs and no reducer sees.
  return sayOnce as unknown as EchoDevMoment
}

/** Whether `action` is one of `echoDevMoments` (their types start with `echo/dev/`). */
export const isDevMoment = (action: unknown): boolean =>
  typeof (action as { type?: unknown }).type === 'string' && (action as { type: string }).type.startsWith(DEV_MOMENT)
