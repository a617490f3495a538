// The README's Quickstart app and its testing example are the files of examples/readme-app, word for
// word: the `readme` vitest project runs that test on that app, so what a reader copies passes.
import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const fileOf = (path: string) => readFileSync(new URL(`../examples/readme-app/${path}`, import.meta.url), 'utf8')

/** The first tsx code block under `heading`. */
function codeUnder(heading: string): string {
  const section = readme.indexOf(`\n${heading}\n`)
  expect(section, `README.md has no heading "${heading}"`).toBeGreaterThan(-1)
  const start = readme.indexOf('```tsx\n', section) + '```tsx\n'.length
  return readme.slice(start, readme.indexOf('```\n', start))
}

describe("the README's code, as the repo runs it", () => {
  it('the Quickstart is examples/readme-app/src/App.tsx', () => {
    expect(fileOf('src/App.tsx')).toBe(codeUnder('## Quickstart: React'))
  })

  it('the testing example is examples/readme-app/test/App.test.tsx', () => {
    expect(fileOf('test/App.test.tsx')).toBe(codeUnder('## Testing your app'))
  })
})
