// The size guard (scripts/check-size.mjs) measures the same bytes for the same package wherever it was
// checked out: a guard whose figures move with the checkout's path fails one clone and passes another.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

import { afterAll, describe, expect, it } from 'vitest'

import { bundleApp } from '../../bench/bundleApp.mjs'

const REPO = resolve(import.meta.dirname, '../..')
const places: string[] = []

/** The built package copied to a checkout of its own at `name` (its dependencies linked from the repo's). */
function checkoutAt(name: string): string {
  const root = mkdtempSync(join(tmpdir(), name))
  places.push(root)
  const packageDir = join(root, 'echo-rtk')
  mkdirSync(packageDir)
  cpSync(join(REPO, 'dist'), join(packageDir, 'dist'), { recursive: true })
  cpSync(join(REPO, 'package.json'), join(packageDir, 'package.json'))
  symlinkSync(join(REPO, 'node_modules'), join(packageDir, 'node_modules'), 'dir')
  return packageDir
}

afterAll(() => {
  for (const place of places) rmSync(place, { recursive: true, force: true })
})

describe.runIf(existsSync(join(REPO, 'dist/index.js')))('the size guard', () => {
  it('measures the same chunks and bytes from two checkouts at paths of different lengths', async () => {
    const [short, long] = [checkoutAt('a-'), checkoutAt('a-much-longer-name-for-a-checkout-')]
    const [first, second] = await Promise.all(
      [short, long].map((packageDir) => bundleApp({ packageName: 'echo-rtk', packageDir })),
    )
    expect(second!.chunks).toEqual(first!.chunks)
    expect([second!.gzip, second!.whole.gzip]).toEqual([first!.gzip, first!.whole.gzip])
  }, 60_000)
})
