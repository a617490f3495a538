import { fileURLToPath } from 'node:url'

import { defineConfig } from 'vitest/config'

const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url))

// `npm run test:real-echo` (scripts/realEcho.mjs): the demo's flows in Chromium against Echo's own
// server code, run locally. Not part of `npm test`.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^echo-rtk$/, replacement: source('index.ts') },
      { find: /^echo-rtk\/client$/, replacement: source('client.ts') },
      { find: /^echo-rtk\/server$/, replacement: source('server.ts') },
    ],
  },
  test: {
    name: 'real-echo',
    environment: 'node',
    include: ['test/real-echo/**/*.e2e.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
