// The models the router accepts, with their prices; `/api/v1/supported-models` lists exactly these.
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

/** @type {readonly Model[]} */
export const MODELS = Object.freeze([
  model('gpt-4o-mini', 'openai', 'text', 200, 1000),
  model('gpt-4o', 'openai', 'text', 500, 2000),
  model('gpt-4.1-mini', 'openai', 'text', 200, 1000),
  model('gpt-4.1-nano', 'openai', 'text', 100, 500),
  model('gpt-3.5-turbo-instruct', 'openai', 'text', 200, 1000),
  model('text-embedding-3-small', 'openai', 'embedding', 10, 0),
  model('text-embedding-3-large', 'openai', 'embedding', 20, 0),
  model('gpt-image-1', 'openai', 'image', 10, 400),
  model('dall-e-3', 'openai', 'image', 10, 400),
  model('whisper-1', 'openai', 'transcription', 0, 1000),
  model('gpt-4o-mini-tts', 'openai', 'speech', 500, 0),
  model('tts-1', 'openai', 'speech', 500, 0),
  model('claude-3-5-haiku-20241022', 'anthropic', 'text', 200, 1000),
  model('claude-haiku-4-5', 'anthropic', 'text', 200, 1000),
  model('claude-sonnet-4-20250514', 'anthropic', 'text', 500, 2000),
  model('claude-sonnet-4-5', 'anthropic', 'text', 500, 2000),
  model('gemini-2.0-flash', 'gemini', 'text', 100, 500),
  model('gemini-2.5-flash', 'gemini', 'text', 200, 1000),
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
