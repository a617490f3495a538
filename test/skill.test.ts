// The agent skill the package ships (skills/echo-rtk/SKILL.md, the Agent Skills format a coding
// assistant reads): its header says what it is for, and its code is the files of examples/skill-app,
// word for word (the `skill` vitest project runs that app's test, and the type check covers the app).
import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')
const skill = read('../skills/echo-rtk/SKILL.md')

/** The YAML header's fields (`key: value` lines between the `---` lines). */
function header(): Record<string, string> {
  const block = /^---\n([\s\S]*?)\n---\n/.exec(skill)
  expect(block, 'SKILL.md starts with a --- header').not.toBeNull()
  return Object.fromEntries(
    block![1]!.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  )
}

/** The code blocks, in order. */
const codeBlocks = () => [...skill.matchAll(/```(?:ts|tsx)\n([\s\S]*?)```\n/g)].map((match) => match[1])

describe('the agent skill (skills/echo-rtk/SKILL.md)', () => {
  it('is named for its folder and says when to use it, within what assistants read', () => {
    const { name, description } = header()
    expect(name).toBe('echo-rtk')
    expect(name).toMatch(/^[a-z0-9-]{1,64}$/)
    expect(description!.length).toBeGreaterThan(50)
    expect(description!.length).toBeLessThanOrEqual(1024)
    expect(description).toMatch(/^Add echo-rtk to a React app/)
  })

  it("its code is examples/skill-app's files, word for word: the store, the app, the model call, the test, the server route", () => {
    expect(codeBlocks()).toEqual(
      ['src/store.ts', 'src/App.tsx', 'src/Ask.tsx', 'test/App.test.tsx', 'server/route.ts'].map((file) =>
        read(`../examples/skill-app/${file}`),
      ),
    )
  })

  it('ships in the package', () => {
    expect((JSON.parse(read('../package.json')) as { files: string[] }).files).toContain('skills')
  })
})
