import { fileURLToPath } from 'node:url'

import type { NextConfig } from 'next'

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

// The example uses echo-rtk as built in this repository (`npm run build`): in your app,
// `npm install echo-rtk` and leave these aliases out.
const nextConfig: NextConfig = {
  turbopack: {
    root: repoRoot,
    resolveAlias: {
      'echo-rtk': './dist/index.js',
      'echo-rtk/server': './dist/server.js',
    },
  },
  outputFileTracingRoot: repoRoot,
}

export default nextConfig
