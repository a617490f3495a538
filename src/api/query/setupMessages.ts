// Every message for a store, a provider or a config set up wrong, in one place. They say what to
// add; production builds (where bundlers set NODE_ENV, as Redux Toolkit and react-redux already
// need) keep only what is wrong, to stay small. NODE_ENV is read when a message is made, never at
// import, so loading echo-rtk needs no `process`. The check stays inline in each message: through a
// helper, the advice would be an argument no bundler drops.

/** How a store is set up for echo-rtk, quoted by the messages for a store that is not. */
const STORE_SETUP =
  'configureStore({ reducer: { ...echoReducers }, middleware: (getDefaultMiddleware) => ' +
  'getDefaultMiddleware().concat(echoMiddleware) })'

/** A store without echo-rtk's middleware. */
export function missingMiddlewareMessage(): string {
  return process.env.NODE_ENV === 'production'
    ? 'echo-rtk: this store has no echoMiddleware'
    : `echo-rtk: this store has no echoMiddleware. Add it: ${STORE_SETUP}`
}

/** A store without echo-rtk's reducers. */
export function missingReducersMessage(): string {
  return process.env.NODE_ENV === 'production'
    ? 'echo-rtk: this store has no echo reducers'
    : `echo-rtk: this store has no echo reducers. Add them: ${STORE_SETUP}`
}

/** A store whose session was never started. */
export function noSessionMessage(): string {
  return process.env.NODE_ENV === 'production'
    ? 'echo-rtk: this store has no Echo session yet'
    : 'echo-rtk: this store has no Echo session yet. Render it inside <EchoProvider config={...} store={store}>, ' +
        'or dispatch startEchoSession(config) once'
}

/** A store's session asked to start with another app's config. */
export function otherConfigMessage(appId: string, apiUrl: string): string {
  const belongs =
    `echo-rtk: this store's Echo session belongs to app ${appId} at ${apiUrl}; it cannot switch to ` + `another config`
  return process.env.NODE_ENV === 'production'
    ? belongs
    : `${belongs}. Create another store (or give <EchoProvider> a new key) for another app`
}

/** An `<EchoProvider>` whose config changed after mount. */
export function configChangedMessage(from: string, to: string): string {
  const changed = `echo-rtk: <EchoProvider> config changed after mount (${from} -> ${to})`
  return process.env.NODE_ENV === 'production'
    ? changed
    : `${changed}. A provider keeps one session for its life: give it a new key (e.g. key={config.appId}) to ` +
        `start another`
}

/** An `<EchoProvider>` inside another one for the same app, with another store or other settings. */
export function nestedProviderMessage(appId: string, difference: string): string {
  const nested =
    `echo-rtk: an <EchoProvider> for app ${appId} is inside another one for the same app, with ` +
    `${difference}: a page has one Echo session per app`
  return process.env.NODE_ENV === 'production'
    ? nested
    : `${nested}. Remove the inner <EchoProvider> (everything under the outer one already has the session), or ` +
        `give it the outer one's config and store`
}
