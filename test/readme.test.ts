// README.md says only what the repo shows: the bench table is the last bench run's, and the
// Quickstart app and its testing example are the files of examples/readme-app, word for word (the
// `readme` vitest project runs that test on that app, so what a reader copies passes).
import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')
const tableRows = (markdown: string) => markdown.split('\n').filter((line) => line.startsWith('|'))
const readme = read('../README.md')

/** The first tsx code block under `heading`. */
function codeUnder(heading: string): string {
  const section = readme.indexOf(`\n${heading}\n`)
  expect(section, `README.md has no heading "${heading}"`).toBeGreaterThan(-1)
  const start = readme.indexOf('```tsx\n', section) + '```tsx\n'.length
  return readme.slice(start, readme.indexOf('```\n', start))
}

describe('README.md', () => {
  it("claims the performance bench/results.md measured: its table is that run's, row for row", () => {
    const block = /<!-- bench:table -->\n([\s\S]*?)\n<!-- \/bench:table -->/.exec(readme)
    expect(block, 'README.md has no bench:table block (npm run bench writes it)').not.toBeNull()
    expect(tableRows(block![1]!)).toEqual(tableRows(read('../bench/results.md').split('\n## ')[0]!))
  })

  it('its Quickstart is examples/readme-app/src/App.tsx', () => {
    expect(read('../examples/readme-app/src/App.tsx')).toBe(codeUnder('## Quickstart: React'))
  })

  it('its testing example is examples/readme-app/test/App.test.tsx', () => {
    expect(read('../examples/readme-app/test/App.test.tsx')).toBe(codeUnder('## Testing your app'))
  })
})
