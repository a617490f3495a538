// `npm run test:real-echo [-- ECHO_GIT_DIR]`: the demo's flows in Chromium against Echo's own server
// code (control plane and router) run on this machine, in production-like sign-in mode with
// 20-second access tokens. Not part of `npm test`: CI has no copy of Echo.
//
// It needs two things this repository does not hold (Echo's code is Echo's, and so is any recipe
// that builds it), named by environment variables:
//   ECHO_GIT_DIR  a git dir of Merit-Systems/echo (a bare mirror is fine); or the first argument
//   ECHO_SETUP    the local-Echo kit: a folder whose run.sh takes `setup <git dir>`, `start` and
//                 `stop` (honouring ECHO_WORK, ECHO_TEST_MODE=0 and ECHO_ACCESS_TTL), serves the
//                 control plane on :3300 and the router on :3369, and seeds the users and apps that
//                 test/real-echo/realEcho.e2e.ts names
// and optionally ECHO_WORK (where Echo is set up; default <tmp>/echo-rtk-real-echo), ECHO_KEEP=1
// (leave Echo running afterwards). It says plainly when Echo cannot be set up. The result goes
// into README.md (the real-echo block), with the date and Echo's commit.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { heading, run } from './run.mjs'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const README = join(REPO, 'README.md')
const REPORT = join(REPO, '.real-echo-report.json')
const CONTROL = 'http://localhost:3300'
const ACCESS_TTL = 20

const gitDir = process.argv[2] ?? process.env.ECHO_GIT_DIR
const kit = process.env.ECHO_SETUP
const work = process.env.ECHO_WORK ?? join(tmpdir(), 'echo-rtk-real-echo')
const runSh = kit === undefined ? undefined : join(kit, 'run.sh')

function cannotSetUp(reason) {
  console.error(
    `\nEcho cannot be set up here: ${reason}.\nnpm run test:real-echo needs ECHO_GIT_DIR (a git dir of Merit-Systems/echo) and ECHO_SETUP (the local-Echo kit; scripts/realEcho.mjs says what it must do).`,
  )
  process.exit(2)
}

const headOf = (dir) => {
  try {
    return execFileSync('git', ['--git-dir', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    return null
  }
}

if (gitDir === undefined) cannotSetUp('ECHO_GIT_DIR is not set')
if (runSh === undefined || !existsSync(runSh))
  cannotSetUp(kit === undefined ? 'ECHO_SETUP is not set' : `${runSh} does not exist`)
const commit = headOf(gitDir)
if (commit === null) cannotSetUp(`${gitDir} is not a git dir`)
if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'))
  cannotSetUp("Debian's chromium is not installed (apt-get install chromium)")

const env = { ...process.env, ECHO_WORK: work, ECHO_TEST_MODE: '0', ECHO_ACCESS_TTL: String(ACCESS_TTL) }
const kitStep = (...args) => run('bash', [runSh, ...args], { env })
const seconds = (since) => Math.round((Date.now() - since) / 1000)

let setupSeconds = 0
const setUpFor = existsSync(join(work, 'echo-commit')) ? readFileSync(join(work, 'echo-commit'), 'utf8').trim() : null
if (setUpFor !== commit) {
  heading(`setting up Echo ${commit.slice(0, 8)} in ${work}`)
  if (setUpFor !== null) {
    await kitStep('stop')
    rmSync(work, { recursive: true, force: true })
  }
  const started = Date.now()
  if ((await kitStep('setup', gitDir)) !== 0) cannotSetUp(`the kit's setup failed (its logs are in ${work}/logs)`)
  setupSeconds = seconds(started)
}

heading(`starting Echo (production-like sign-in, ${ACCESS_TTL}-second access tokens)`)
await kitStep('stop')
let started = Date.now()
if ((await kitStep('start')) !== 0) cannotSetUp(`Echo did not start (its logs are in ${work}/logs)`)
// next dev compiles each page on its first request: ask for the sign-in pages once before the clock starts.
for (const path of ['/api/auth/csrf', '/login', '/oauth/authorize', '/api/oauth/token', '/api/v1/balance'])
  await fetch(`${CONTROL}${path}`).catch(() => undefined)
const startSeconds = seconds(started)

heading('the demo on Echo, in Chromium')
started = Date.now()
rmSync(REPORT, { force: true })
const code = await run(
  'npx',
  [
    'vitest',
    'run',
    '--config',
    'vitest.real-echo.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${REPORT}`,
  ],
  {
    env: { ...env, ECHO_ACCESS_TTL: String(ACCESS_TTL) },
    cwd: REPO,
  },
)
const testSeconds = seconds(started)
if (process.env.ECHO_KEEP !== '1') await kitStep('stop')

let passed = 0
let failed = 0
try {
  ;({ numPassedTests: passed, numFailedTests: failed } = JSON.parse(readFileSync(REPORT, 'utf8')))
} catch {
  console.error('No test report was written: the tests did not run.')
}
rmSync(REPORT, { force: true })
const date = new Date().toISOString().slice(0, 10)
const result = `Last run ${date}, on Echo \`${commit.slice(0, 8)}\` (Merit-Systems/echo): **${passed} passed, ${failed} failed**; setup ${setupSeconds === 0 ? 'already done' : `${setupSeconds} s`}, start ${startSeconds} s, tests ${testSeconds} s.`
const readme = readFileSync(README, 'utf8')
const block = /(<!-- real-echo:result -->\n)[\s\S]*?(\n<!-- \/real-echo:result -->)/
if (block.test(readme)) writeFileSync(README, readme.replace(block, `$1${result}$2`))
console.log(`\n${result.replace(/\*\*/g, '')}\n${passed} passed, ${failed} failed`)
process.exit(code !== 0 || failed > 0 || passed === 0 ? 1 : 0)
