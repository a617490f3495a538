import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Imports point one way (docs/session.md, "Layers"): config/errors <- api <- auth <- api/query <- store <- components <- index.
// Each layer lists what it must never reach for.
const higherLayers = (...layers) =>
  layers.map((layer) => ({
    group: [`**/${layer}`, `**/${layer}/*`, `**/${layer}.ts`],
    message: `Imports point down the layers (docs/session.md, "Layers"): this file may not import from ${layer}/.`,
  }))
const frameworks = ['react', 'react-dom', 'react-redux', '@reduxjs/toolkit', '@reduxjs/toolkit/*'].map((name) => ({
  group: [name],
  message: 'The framework-free core (echo-rtk/client) imports no React or Redux.',
}))

export default tseslint.config(
  {
    ignores: [
      '.peer-matrix/',
      '.tools/',
      'dist/',
      'node_modules/',
      'coverage/',
      'bench/node_modules/',
      'bench/.work/',
      'examples/*/dist/',
      'examples/*/.next/',
      'examples/*/next-env.d.ts',
      '.stryker-tmp*/',
      'reports/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // One job per file: a source file past 500 lines holds a second job to split out (a timer, a watcher).
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  {
    files: ['src/config.ts', 'src/errors.ts', 'src/errorReasons.ts', 'src/echoPaths.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...higherLayers('api', 'auth', 'store', 'components'), ...frameworks] },
      ],
    },
  },
  {
    // The framework-free core, echo-rtk/client: no React, no Redux.
    files: ['src/api/*.ts', 'src/api/router/**/*.ts', 'src/client.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...higherLayers('auth', 'store', 'components'), ...frameworks] }],
    },
  },
  {
    // echo-rtk/server: config, errors and the framework-free api only (docs/nextjs.md).
    files: ['src/server/**/*.ts', 'src/server.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...higherLayers('auth', 'store', 'components', 'query'), ...frameworks] },
      ],
    },
  },
  {
    // RTK Query and the react-redux context its hooks read: Redux and React allowed. The session it
    // runs on lives above it (auth/, store/): it asks for it through the session port.
    files: ['src/api/query/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: higherLayers('auth', 'store', 'components') }],
    },
  },
  {
    files: ['src/auth/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: higherLayers('query', 'store', 'components') }],
    },
  },
  {
    files: ['src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: higherLayers('components') }],
    },
  },
  {
    files: ['test/**/*'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
)
