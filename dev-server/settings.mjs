// The dev server's settings: defaults, and reading them from environment variables and flags.
// The names are a contract other tools rely on (issue 7): change none of them. The defaults answer
// as Echo does; the stricter behaviours (refreshGrace, codeReplay off) are opt-in.

/**
 * The dev server's settings: the one definition, for the JavaScript here and the TypeScript callers
 * (`import type { DevServerSettings } from '../dev-server/settings.mjs'`).
 * @typedef {object} DevServerSettings
 * @property {number} port OAuth and /api/v1 port (0 = any free port). ECHO_DEV_PORT, --port.
 * @property {number} routerPort The model router's port (0 = any free port). ECHO_DEV_ROUTER_PORT, --router-port.
 * @property {number} accessTtl Access-token lifetime in seconds. ECHO_DEV_ACCESS_TTL, --access-ttl.
 * @property {boolean} autoLogin Login and consent complete by themselves for the test user. ECHO_DEV_AUTO_LOGIN=1, --auto-login.
 * @property {number} streamDelayMs Pause between streamed chunks, in milliseconds. ECHO_DEV_STREAM_DELAY, --stream-delay.
 * @property {number} balance The test user's starting balance in USD. ECHO_DEV_BALANCE, --balance.
 * @property {number} creditDelayMs How long after checkout is paid its credits reach the balance, in milliseconds
 *   (a slow payment provider). ECHO_DEV_CREDIT_DELAY, --credit-delay.
 * @property {boolean} refreshGrace A rotated refresh token still works for 2 minutes, as at Echo (each reuse
 *   minting a new one); off, its reuse revokes the grant. ECHO_DEV_REFRESH_GRACE, --refresh-grace.
 * @property {boolean} codeReplay An authorization code can be exchanged again within its life, as at Echo; off,
 *   a reused code is refused and revokes the grant. ECHO_DEV_CODE_REPLAY, --code-replay.
 * @property {boolean} modelsRoute The dev server's own `GET /api/v1/supported-models`, which Echo does not have;
 *   off, that path is a bare 404 as at Echo. ECHO_DEV_MODELS_ROUTE, --models-route.
 * @property {string[]} appIds Your own apps' ids (from Echo's dashboard), signed in to besides the demo app's, so an
 *   app keeps its real `appId` while `apiUrl` points here. ECHO_DEV_APP_ID, --app-id (comma-separated).
 */

/** @type {Readonly<DevServerSettings>} */
export const DEFAULT_SETTINGS = Object.freeze({
  port: 8787,
  routerPort: 8788,
  accessTtl: 900,
  autoLogin: false,
  streamDelayMs: 30,
  balance: 10,
  creditDelayMs: 0,
  refreshGrace: true,
  codeReplay: true,
  modelsRoute: false,
  appIds: [],
})

/**
 * Each setting with its environment variable and flag. `kind` says how the text is read.
 * @type {ReadonlyArray<{ key: keyof DevServerSettings, env: string, flag: string, kind: 'port' | 'seconds' | 'ms' | 'usd' | 'boolean' | 'appIds', help: string }>}
 */
export const SETTING_SOURCES = Object.freeze([
  { key: 'port', env: 'ECHO_DEV_PORT', flag: '--port', kind: 'port', help: 'OAuth and /api/v1 port (default 8787)' },
  {
    key: 'routerPort',
    env: 'ECHO_DEV_ROUTER_PORT',
    flag: '--router-port',
    kind: 'port',
    help: 'model router port (default 8788)',
  },
  {
    key: 'accessTtl',
    env: 'ECHO_DEV_ACCESS_TTL',
    flag: '--access-ttl',
    kind: 'seconds',
    help: 'access-token lifetime in seconds (default 900)',
  },
  {
    key: 'autoLogin',
    env: 'ECHO_DEV_AUTO_LOGIN',
    flag: '--auto-login',
    kind: 'boolean',
    help: 'sign the test user in and consent by themselves (1 = on)',
  },
  {
    key: 'streamDelayMs',
    env: 'ECHO_DEV_STREAM_DELAY',
    flag: '--stream-delay',
    kind: 'ms',
    help: 'pause between streamed chunks in ms (default 30)',
  },
  {
    key: 'balance',
    env: 'ECHO_DEV_BALANCE',
    flag: '--balance',
    kind: 'usd',
    help: "the test user's starting balance in USD (default 10)",
  },
  {
    key: 'creditDelayMs',
    env: 'ECHO_DEV_CREDIT_DELAY',
    flag: '--credit-delay',
    kind: 'ms',
    help: 'how long a paid checkout takes to credit the balance, in ms (default 0)',
  },
  {
    key: 'refreshGrace',
    env: 'ECHO_DEV_REFRESH_GRACE',
    flag: '--refresh-grace',
    kind: 'boolean',
    help: "Echo's 2-minute grace for a rotated refresh token (default 1; 0: reuse revokes the grant)",
  },
  {
    key: 'codeReplay',
    env: 'ECHO_DEV_CODE_REPLAY',
    flag: '--code-replay',
    kind: 'boolean',
    help: 'a code works again within its life, as at Echo (default 1; 0: reuse revokes the grant)',
  },
  {
    key: 'modelsRoute',
    env: 'ECHO_DEV_MODELS_ROUTE',
    flag: '--models-route',
    kind: 'boolean',
    help: 'serve GET /api/v1/supported-models, which Echo lacks (default 0: a 404 as at Echo)',
  },
  {
    key: 'appIds',
    env: 'ECHO_DEV_APP_ID',
    flag: '--app-id',
    kind: 'appIds',
    help: "your own apps' ids (UUIDs, comma-separated) to sign in to besides the demo app's",
  },
])

/** An app id as Echo's dashboard gives it: a UUID. */
const APP_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Fills in defaults and checks every value, naming the setting in the error.
 * @param {Partial<DevServerSettings>} [options]
 * @returns {DevServerSettings}
 */
export function resolveSettings(options = {}) {
  const settings = { ...DEFAULT_SETTINGS, ...withoutUndefined(options) }
  checkInteger('port', settings.port, 0, 65535)
  checkInteger('routerPort', settings.routerPort, 0, 65535)
  checkInteger('accessTtl', settings.accessTtl, 1, 31_536_000)
  checkInteger('streamDelayMs', settings.streamDelayMs, 0, 60_000)
  checkInteger('creditDelayMs', settings.creditDelayMs, 0, 3_600_000)
  if (typeof settings.balance !== 'number' || !Number.isFinite(settings.balance) || settings.balance < 0) {
    throw new TypeError(`balance must be a number of US dollars >= 0, got ${String(settings.balance)}`)
  }
  for (const key of /** @type {const} */ (['autoLogin', 'refreshGrace', 'codeReplay', 'modelsRoute'])) {
    if (typeof settings[key] !== 'boolean')
      throw new TypeError(`${key} must be true or false, got ${String(settings[key])}`)
  }
  if (!Array.isArray(settings.appIds) || !settings.appIds.every((id) => typeof id === 'string' && APP_ID.test(id))) {
    throw new TypeError(
      `appIds must be app ids from Echo's dashboard, UUIDs such as 60601628-cdb7-481e-8f7e-921981220348, got ${JSON.stringify(settings.appIds)}`,
    )
  }
  if (settings.port !== 0 && settings.port === settings.routerPort) {
    throw new TypeError(`port and routerPort must differ, both are ${settings.port}`)
  }
  return settings
}

/**
 * Reads settings from environment variables, then flags (a flag wins over its variable).
 * Flags take `--flag value` or `--flag=value`; `--auto-login` alone means on.
 * @param {Record<string, string | undefined>} env
 * @param {readonly string[]} argv the arguments after the script name
 * @returns {{ settings: Partial<DevServerSettings>, help: boolean }}
 */
export function readSettings(env, argv) {
  /** @type {Record<string, unknown>} */
  const settings = {}
  for (const source of SETTING_SOURCES) {
    const text = env[source.env]
    if (text !== undefined && text !== '') settings[source.key] = parseValue(source, text, source.env)
  }
  let help = false
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? ''
    if (argument === '--help' || argument === '-h') {
      help = true
      continue
    }
    const [flag = '', inline] = splitOnce(argument, '=')
    const negated = SETTING_SOURCES.find(
      (candidate) => candidate.kind === 'boolean' && flag === candidate.flag.replace(/^--/, '--no-'),
    )
    if (negated && inline === undefined) {
      settings[negated.key] = false
      continue
    }
    const source = SETTING_SOURCES.find((candidate) => candidate.flag === flag)
    if (!source) throw new TypeError(`Unknown argument ${argument}; run with --help to list the settings`)
    let text = inline
    if (text === undefined && source.kind === 'boolean') {
      const next = argv[index + 1]
      if (next !== undefined && /^(1|0|true|false|yes|no|on|off)$/i.test(next)) {
        text = next
        index += 1
      } else {
        text = '1'
      }
    } else if (text === undefined) {
      text = argv[index + 1]
      index += 1
      if (text === undefined) throw new TypeError(`${flag} needs a value`)
    }
    settings[source.key] = parseValue(source, text, flag)
  }
  return { settings: /** @type {Partial<DevServerSettings>} */ (settings), help }
}

/** The settings' usage text, for `--help`. */
export function usage() {
  const lines = SETTING_SOURCES.map(
    ({ flag, env, kind, help }) =>
      `  ${`${flag} ${kind === 'boolean' ? '[1|0]' : '<value>'}`.padEnd(24)} ${env.padEnd(22)} ${help}`,
  )
  return [
    'Usage: npm run dev-server -- [flags]',
    '',
    '  flag                     environment variable   meaning',
    ...lines,
    '',
  ].join('\n')
}

/**
 * @param {{ kind: string }} source
 * @param {string} text
 * @param {string} name the variable or flag, for the error
 */
function parseValue(source, text, name) {
  const trimmed = text.trim()
  if (source.kind === 'appIds') {
    const ids = trimmed.split(',').map((id) => id.trim())
    const wrong = ids.find((id) => !APP_ID.test(id))
    if (wrong !== undefined)
      throw new TypeError(`${name} must be app ids from Echo's dashboard (UUIDs), got ${JSON.stringify(wrong)}`)
    return ids
  }
  if (source.kind === 'boolean') {
    if (/^(1|true|yes|on)$/i.test(trimmed)) return true
    if (/^(0|false|no|off)$/i.test(trimmed)) return false
    throw new TypeError(`${name} must be 1 or 0, got ${JSON.stringify(text)}`)
  }
  const value = Number(trimmed)
  if (trimmed === '' || !Number.isFinite(value))
    throw new TypeError(`${name} must be a number, got ${JSON.stringify(text)}`)
  return value
}

/**
 * @param {string} name
 * @param {unknown} value
 * @param {number} min
 * @param {number} max
 */
function checkInteger(name, value, min, max) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`${name} must be a whole number from ${min} to ${max}, got ${String(value)}`)
  }
}

/**
 * @param {string} text
 * @param {string} separator
 * @returns {[string, string | undefined]}
 */
function splitOnce(text, separator) {
  const at = text.indexOf(separator)
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)]
}

/**
 * @template {object} T
 * @param {T} object
 * @returns {Partial<T>}
 */
function withoutUndefined(object) {
  return /** @type {Partial<T>} */ (
    Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined))
  )
}
