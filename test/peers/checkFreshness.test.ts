// The freshness check of `npm test` (scripts/checkFreshness.mjs), on releases made up for each case.
import { describe, expect, it } from 'vitest'

import { findStale, ltsLines, satisfies } from '../../scripts/checkFreshness.mjs'

const pkg = {
  peerDependencies: { msw: '^2.0.2 || ^3.0.0', react: '^18.0.0 || ^19.0.0' },
  engines: { node: '>=22.12.0' },
}
const matrix = {
  runtimes: { node: { suite: '26.12.1', lowest: '22.12.0' }, typescript: '7.0.2' },
  combinations: [
    { name: 'lowest', peers: { msw: '2.0.2', react: '18.0.0' } },
    { name: 'newest', peers: { msw: '3.0.5', react: '19.3.1' } },
  ],
}
const nodeVersions = ['20.20.2', '22.23.5', '24.22.3', '25.9.0', '26.12.1']
const today = new Date('2026-11-28T12:00:00Z')
const latest = { msw: '3.0.5', react: '19.3.1', typescript: '7.0.2' }

describe('the freshness check', () => {
  it('passes when every newest release is in its range and tested', () => {
    expect(findStale({ pkg, matrix, latest, nodeVersions, today })).toEqual([])
  })

  it('names a peer release outside the range, and what to do', () => {
    const narrow = { ...pkg, peerDependencies: { ...pkg.peerDependencies, msw: '^2.0.2' } }
    expect(findStale({ pkg: narrow, matrix, latest, nodeVersions, today })).toEqual([
      'msw 3.0.5 is outside the peer range ^2.0.2: test it and widen the range in package.json, or say in the README why not',
    ])
  })

  it('names a release in the range that no combination tests', () => {
    const problems = findStale({ pkg, matrix, latest: { ...latest, msw: '3.1.0' }, nodeVersions, today })
    expect(problems).toEqual([expect.stringMatching(/^msw 3\.1\.0 is in the peer range but no combination tests it/)])
  })

  it('names a TypeScript newer than the one the source is checked on', () => {
    const problems = findStale({ pkg, matrix, latest: { ...latest, typescript: '7.1.0' }, nodeVersions, today })
    expect(problems).toEqual([
      expect.stringMatching(/^typescript 7\.1\.0 is newer than the TypeScript the tests check/),
    ])
  })

  it('reads the Node LTS lines from the release schedule: 22, 24 and 26 late in 2026, not 20 or 25', () => {
    expect(ltsLines(nodeVersions, today)).toEqual([
      { major: 22, latest: '22.23.5' },
      { major: 24, latest: '24.22.3' },
      { major: 26, latest: '26.12.1' },
    ])
  })

  it('asks for the suite to move when a new LTS line starts, and for engines to cover every LTS line', () => {
    const later = new Date('2028-10-15T12:00:00Z')
    const problems = findStale({ pkg, matrix, latest, nodeVersions: [...nodeVersions, '28.1.0'], today: later })
    expect(problems).toEqual([
      expect.stringMatching(/^Node 28 \(28\.1\.0\) is the newest LTS line, but the tests run on Node 26/),
    ])
    const high = { ...pkg, engines: { node: '>=24' } }
    expect(findStale({ pkg: high, matrix, latest, nodeVersions, today })).toEqual([
      expect.stringMatching(/^Node 22 \(22\.23\.5\) is an LTS line outside engines >=24/),
    ])
  })

  it('reads the range forms package.json uses, and refuses one it cannot read', () => {
    expect(satisfies('3.0.5', '^2.0.2 || ^3.0.0')).toBe(true)
    expect(satisfies('2.0.1', '^2.0.2')).toBe(false)
    expect(satisfies('22.12.0', '>=22.12.0')).toBe(true)
    expect(satisfies('22.11.9', '>=22.12')).toBe(false)
    expect(() => void satisfies('1.0.0', '~1.0.0')).toThrow('cannot read the range "~1.0.0"')
  })
})
