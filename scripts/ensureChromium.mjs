// The e2e tests drive Debian's Chromium (playwright-core never downloads a browser). On a machine
// without it, install it with apt-get when we can (root on Debian), else say how.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return true
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
  if (!canInstall) {
    console.error(
      `The e2e tests need Chromium at ${CHROMIUM}: install it (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
    )
    return false
  }
  console.log(`Chromium is missing at ${CHROMIUM}: installing Debian's chromium (about a minute)...`)
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' })
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  } catch (error) {
    console.error(`Installing chromium failed: ${error instanceof Error ? error.message : String(error)}`)
    return false
  }
  return existsSync(CHROMIUM)
}
