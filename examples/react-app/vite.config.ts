import { fileURLToPath } from 'node:url'

import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const source = (file: string) => fileURLToPath(new URL(`../../src/${file}`, import.meta.url))

// The demo imports the package as any app would ('echo-rtk'); here that name points at this repo.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^echo-rtk$/, replacement: source('index.ts') },
      { find: /^echo-rtk\/client$/, replacement: source('client.ts') },
    ],
  },
  server: { host: '127.0.0.1' },
})
