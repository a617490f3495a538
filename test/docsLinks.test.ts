// The hand-written docs hold together: every relative link reaches a file and, with a `#part`, a heading
// of that file; every heading a source comment names (`docs/session.md, "Tabs"`) is there; and the
// hand-written words stay within what a reader can read (the generated reference, docs/reference, is
// not counted: TypeDoc writes it from the source's doc comments).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (file: string) => readFileSync(join(root, file), 'utf8')
const handWritten = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]
const linked = [...handWritten, 'skills/echo-rtk/SKILL.md', 'CHANGELOG.md']

const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = text!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
    seen.set(slug, count + 1)
  }
  return anchors
}

const headingsOf = (markdown: string) =>
  new Set([...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map(([, text]) => text!.trim()))

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder)).flatMap((name) => {
    const path = `${folder}/${name}`
    return statSync(join(root, path)).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : []
  })
}

/** Words as `wc -w` counts them, code blocks included. */
const wordsOf = (markdown: string) => markdown.split(/\s+/).filter(Boolean).length

describe('the hand-written docs', () => {
  it.each(linked)('%s: every relative link reaches its file and heading', (file) => {
    const broken: string[] = []
    for (const [, target] of withoutCode(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue
      const [path, anchor] = target!.split('#') as [string, string | undefined]
      const goal = path === '' ? file : relative(root, join(root, dirname(file), decodeURIComponent(path)))
      if (!existsSync(join(root, goal))) broken.push(`${target} (no file ${goal})`)
      else if (anchor !== undefined && goal.endsWith('.md') && !anchorsOf(read(goal)).has(anchor))
        broken.push(`${target} (no heading #${anchor} in ${goal})`)
    }
    expect(broken).toEqual([])
  })

  it('has every heading a source comment names', () => {
    const missing: string[] = []
    for (const file of [...sourceFiles('src'), ...sourceFiles('test')]) {
      const text = read(file)
      for (const [, doc, , heading] of text.matchAll(
        /(docs\/[a-z-]+\.md),\s*\n?\s*(?:\*\s*|\/\/\s*)?(["'])([^\n]+?)\2(?=[),.;:])/g,
      )) {
        if (!existsSync(join(root, doc!))) missing.push(`${file}: ${doc} does not exist`)
        else if (!headingsOf(read(doc!)).has(heading!)) missing.push(`${file}: no heading "${heading}" in ${doc}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('are at most 25,000 words in all, docs/api.md at most 6,000 (as `wc -w` counts)', () => {
    const words = Object.fromEntries(handWritten.map((file) => [file, wordsOf(read(file))]))
    const total = Object.values(words).reduce((sum, count) => sum + count, 0)
    expect(
      { total: Math.min(total, 25_000), api: Math.min(words['docs/api.md']!, 6_000) },
      JSON.stringify(words),
    ).toEqual({ total, api: words['docs/api.md'] })
  })
})
