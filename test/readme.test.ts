import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')
const tableRows = (markdown: string) => markdown.split('\n').filter((line) => line.startsWith('|'))

describe('README.md', () => {
  it("claims the performance bench/results.md measured: its table is that run's, row for row", () => {
    const block = /<!-- bench:table -->\n([\s\S]*?)\n<!-- \/bench:table -->/.exec(read('../README.md'))
    expect(block, 'README.md has no bench:table block (npm run bench writes it)').not.toBeNull()
    expect(tableRows(block![1]!)).toEqual(tableRows(read('../bench/results.md').split('\n## ')[0]!))
  })
})
