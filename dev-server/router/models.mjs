// The models the router accepts, with their prices; `/api/v1/supported-models` lists exactly these:
// Echo's own catalogue of chat models, and the embedding, image and audio models of the official
// clients' examples.
// Prices are per token in US dollars and high on purpose: one chat answer (about 20 tokens) costs
// at least $0.02, so the balance a person watches moves with each call.

/**
 * What a model does, which decides the endpoints that take it:
 * text -> chat/completions, responses, completions, messages, generateContent, streamGenerateContent;
 * embedding -> embeddings, embedContent, batchEmbedContents; image -> images/generations, predict;
 * transcription -> audio/transcriptions; speech -> audio/speech.
 * @typedef {'text' | 'embedding' | 'image' | 'transcription' | 'speech'} ModelKind
 */

/**
 * @typedef {object} Model
 * @property {string} id
 * @property {'openai' | 'anthropic' | 'gemini'} provider
 * @property {ModelKind} kind
 * @property {number} inputMicros price of one input token in micro-dollars
 * @property {number} outputMicros price of one output token (an image counts IMAGE_TOKENS tokens) in micro-dollars
 */

/** An image is billed as this many output tokens. */
export const IMAGE_TOKENS = 100

/** @type {(id: string, provider: Model['provider'], kind: ModelKind, inputMicros: number, outputMicros: number) => Model} */
const model = (id, provider, kind, inputMicros, outputMicros) => ({ id, provider, kind, inputMicros, outputMicros })

// The chat models Echo's router serves (Echo's TypeScript SDK, src/supported-models/chat/), by
// provider: the dev server answers every one of them, priced by tier.
const ECHO_OPENAI_CHAT = `gpt-3.5-turbo gpt-3.5-turbo-0125 gpt-3.5-turbo-1106 gpt-3.5-turbo-16k gpt-3.5-turbo-instruct
  gpt-3.5-turbo-instruct-0914 gpt-4 gpt-4-0125-preview gpt-4-0613 gpt-4-1106-preview gpt-4-turbo gpt-4-turbo-2024-04-09
  gpt-4-turbo-preview gpt-4.1 gpt-4.1-2025-04-14 gpt-4.1-mini gpt-4.1-mini-2025-04-14 gpt-4.1-nano gpt-4.1-nano-2025-04-14
  gpt-4o gpt-4o-2024-05-13 gpt-4o-2024-08-06 gpt-4o-2024-11-20 gpt-4o-mini gpt-4o-mini-2024-07-18 gpt-4o-mini-search-preview
  gpt-4o-mini-search-preview-2025-03-11 gpt-4o-search-preview gpt-4o-search-preview-2025-03-11 gpt-5 gpt-5-2025-08-07
  gpt-5-chat-latest gpt-5-codex gpt-5-mini gpt-5-mini-2025-08-07 gpt-5-nano gpt-5-nano-2025-08-07 gpt-5-pro gpt-5-pro-2025-10-06
  gpt-5-search-api gpt-5-search-api-2025-10-14 o1 o1-2024-12-17 o1-mini o1-mini-2024-09-12 o1-pro o1-pro-2025-03-19 o3
  o3-2025-04-16 o3-deep-research o3-deep-research-2025-06-26 o3-mini o3-mini-2025-01-31 o3-pro o3-pro-2025-06-10`
const ECHO_ANTHROPIC_CHAT = `claude-3-5-haiku-20241022 claude-3-5-sonnet-20240620 claude-3-5-sonnet-20241022
  claude-3-7-sonnet-20250219 claude-3-haiku-20240307 claude-3-opus-20240229 claude-haiku-4-5-20251001 claude-opus-4-1-20250805
  claude-opus-4-20250514 claude-sonnet-4-20250514 claude-sonnet-4-5-20250929`
const ECHO_GEMINI_CHAT = `gemini-2.0-flash gemini-2.0-flash-001 gemini-2.0-flash-exp gemini-2.0-flash-exp-image-generation
  gemini-2.0-flash-lite gemini-2.0-flash-lite-001 gemini-2.0-flash-lite-preview gemini-2.0-flash-lite-preview-02-05
  gemini-2.0-flash-preview-image-generation gemini-2.0-flash-thinking-exp gemini-2.0-flash-thinking-exp-01-21
  gemini-2.0-flash-thinking-exp-1219 gemini-2.5-flash gemini-2.5-flash-image gemini-2.5-flash-image-preview
  gemini-2.5-flash-lite gemini-2.5-flash-lite-preview-06-17 gemini-2.5-flash-lite-preview-09-2025
  gemini-2.5-flash-preview-05-20 gemini-2.5-flash-preview-09-2025 gemini-2.5-flash-preview-tts gemini-2.5-pro
  gemini-2.5-pro-preview-03-25 gemini-2.5-pro-preview-05-06 gemini-2.5-pro-preview-06-05 gemini-2.5-pro-preview-tts`

/**
 * Every id in `list` as a text model of `provider`, priced by its tier: small models (mini, nano,
 * lite, flash, haiku, 3.5) cheap, the largest (pro, opus, o1, o3) dear, the rest between.
 * @param {string} list
 * @param {Model['provider']} provider
 */
function textModels(list, provider) {
  return list
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => {
      if (/mini|nano|lite|flash|haiku|3\.5/.test(id)) return model(id, provider, 'text', 200, 1000)
      if (/pro|opus|^o1|^o3/.test(id)) return model(id, provider, 'text', 1000, 4000)
      return model(id, provider, 'text', 500, 2000)
    })
}

/** @type {readonly Model[]} */
export const MODELS = Object.freeze([
  ...textModels(ECHO_OPENAI_CHAT, 'openai'),
  ...textModels(ECHO_ANTHROPIC_CHAT, 'anthropic'),
  ...textModels(ECHO_GEMINI_CHAT, 'gemini'),
  // Short names the AI SDK's docs and this README use for Anthropic's models (Echo lists them dated).
  model('claude-haiku-4-5', 'anthropic', 'text', 200, 1000),
  model('claude-sonnet-4-5', 'anthropic', 'text', 500, 2000),
  model('text-embedding-3-small', 'openai', 'embedding', 10, 0),
  model('text-embedding-3-large', 'openai', 'embedding', 20, 0),
  model('gpt-image-1', 'openai', 'image', 10, 400),
  model('dall-e-3', 'openai', 'image', 10, 400),
  model('whisper-1', 'openai', 'transcription', 0, 1000),
  model('gpt-4o-mini-tts', 'openai', 'speech', 500, 0),
  model('tts-1', 'openai', 'speech', 500, 0),
  model('text-embedding-004', 'gemini', 'embedding', 10, 0),
  model('gemini-embedding-001', 'gemini', 'embedding', 10, 0),
  model('imagen-3.0-generate-002', 'gemini', 'image', 10, 400),
])

/**
 * The model with this id (a Google `models/` prefix is ignored), or undefined.
 * @param {unknown} id
 */
export function findModel(id) {
  if (typeof id !== 'string') return undefined
  const bare = id.startsWith('models/') ? id.slice('models/'.length) : id
  return MODELS.find((candidate) => candidate.id === bare)
}

/** `GET /api/v1/supported-models`: `{ models, models_by_provider }`, prices in USD per token. */
export function supportedModels() {
  const models = MODELS.map(({ id, provider, inputMicros, outputMicros }) => ({
    model_id: id,
    provider,
    input_cost_per_token: inputMicros / 1_000_000,
    output_cost_per_token: outputMicros / 1_000_000,
  }))
  /** @type {Record<string, typeof models>} */
  const byProvider = {}
  for (const entry of models) (byProvider[entry.provider] ??= []).push(entry)
  return { models, models_by_provider: byProvider }
}
