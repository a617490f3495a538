import { configDefaults, defineConfig } from 'vitest/config'

import base from './vitest.config'

// The tests Stryker runs against each mutant (stryker.config.mjs): the unit (`node`) and
// component (`dom`) projects of vitest.config.ts only. No type tests (they test no runtime code),
// no e2e (a browser per mutant), and nothing that needs the local Echo (`test/dev-server`, and the
// model-client tests that start it in a child process): it is not part of the sandbox.
const notRunPerMutant = [
  'test/dev-server/**',
  'test/e2e/**',
  'test/components/modelClients.test.tsx',
  // It counts which files a flow runs through: it tests the layout, not what a mutant changes.
  'test/flowTrace.test.tsx',
]

export default defineConfig({
  resolve: base.resolve ?? {},
  test: {
    restoreMocks: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...notRunPerMutant],
          setupFiles: ['test/support/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['test/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, ...notRunPerMutant],
          setupFiles: ['test/support/setup.ts'],
        },
      },
    ],
  },
})
