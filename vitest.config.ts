import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'

import { defineConfig } from 'vitest/config'

const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url))

export default defineConfig({
  // Tests import the package as users do: `echo-rtk`, `echo-rtk/client`.
  resolve: {
    alias: [
      { find: /^echo-rtk$/, replacement: source('index.ts') },
      { find: /^echo-rtk\/client$/, replacement: source('client.ts') },
      { find: /^echo-rtk\/testing$/, replacement: source('testing.ts') },
      { find: /^echo-rtk\/server$/, replacement: source('server.ts') },
    ],
  },
  test: {
    restoreMocks: true,
    // vitest's default is one worker fewer than the cores: one on CI's two. The tests mostly wait (on msw, timers,
    // child processes), so one worker more than the cores keeps both busy: 138 s -> 69 s for the unit files here.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: {
          name: 'types',
          include: [],
          typecheck: { enabled: true, only: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          setupFiles: ['test/support/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          // Real Chromium against the local Echo and the demo app: one file at a time, no msw.
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          // The demo's own tests, written as an app team writes them (echo-rtk and echo-rtk/testing only).
          name: 'example',
          environment: 'jsdom',
          include: ['examples/react-app/test/**/*.test.tsx'],
          setupFiles: ['examples/react-app/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The same tests on happy-dom, the other DOM an app team tests on.
          name: 'example-happy-dom',
          environment: 'happy-dom',
          include: ['examples/react-app/test/**/*.test.tsx'],
          setupFiles: ['examples/react-app/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The README's testing example on the README's Quickstart app, as the README gives them
          // (test/readme.test.ts holds the files to the README's text).
          name: 'readme',
          environment: 'jsdom',
          globals: true,
          include: ['examples/readme-app/test/**/*.test.tsx'],
          setupFiles: ['examples/readme-app/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The agent skill's test on the skill's app (skills/echo-rtk/SKILL.md; test/skill.test.ts holds the
          // files to the skill's text), so what a coding assistant copies passes.
          name: 'skill',
          environment: 'jsdom',
          globals: true,
          include: ['examples/skill-app/test/**/*.test.tsx'],
          setupFiles: ['examples/skill-app/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['test/**/*.test.tsx'],
          setupFiles: ['test/support/setup.ts'],
        },
      },
    ],
  },
})
