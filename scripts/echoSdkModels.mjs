// Writes src/api/echoSdkModels.json: the models and prices Echo's own TypeScript SDK ships
// (`@merit-systems/echo-typescript-sdk`, MIT), which Echo's router imports to bill by. Echo has no
// `GET /api/v1/supported-models`; `models.supported()` answers from this list when the route is not
// there. Run it when Echo's SDK releases (the version goes in the file), then commit the file:
//
//   node scripts/echoSdkModels.mjs [VERSION]
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const PACKAGE = '@merit-systems/echo-typescript-sdk'
const version = process.argv[2] ?? '1.0.23'
const out = new URL('../src/api/echoSdkModels.json', import.meta.url)

const scratch = mkdtempSync(join(tmpdir(), 'echo-sdk-models-'))
try {
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
      '--prefix',
      scratch,
      `${PACKAGE}@${version}`,
    ],
    { stdio: 'inherit' },
  )
  const installed = join(scratch, 'node_modules', PACKAGE)
  const { version: got } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'))
  const sdk = await import(pathToFileURL(join(installed, 'dist/index.js')).href)
  // The chat models (every provider's list the SDK exports) and the image models, as Echo's
  // `{ model_id, provider, input_cost_per_token, output_cost_per_token }` (an image model's output is
  // its image tokens; video models are priced per second and left out).
  const chat = [
    'OpenAIModels',
    'AnthropicModels',
    'GeminiModels',
    'OpenRouterModels',
    'GroqModels',
    'XAIModels',
  ].flatMap((name) => sdk[name] ?? [])
  const images = (sdk.OpenAIImageModels ?? []).map((model) => ({
    model_id: model.model_id,
    provider: model.provider,
    input_cost_per_token: model.text_input_cost_per_token,
    output_cost_per_token: model.image_output_cost_per_token,
  }))
  const seen = new Set()
  const models = [...chat, ...images]
    .map(({ model_id, provider, input_cost_per_token, output_cost_per_token }) => ({
      model_id,
      provider,
      input_cost_per_token,
      output_cost_per_token,
    }))
    .filter((model) => !seen.has(model.model_id) && seen.add(model.model_id))
  // One model a line: a release's changes read as lines in a diff.
  writeFileSync(
    out,
    `{"sdkVersion":${JSON.stringify(got)},"models":[\n${models.map((model) => JSON.stringify(model)).join(',\n')}\n]}\n`,
  )
  console.log(`wrote ${models.length} models of ${PACKAGE} ${got} to src/api/echoSdkModels.json`)
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
