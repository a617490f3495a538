// The router's answers that are not streamed text: embeddings, images, transcription and speech
// (OpenAI style), and Imagen :predict, :embedContent and :batchEmbedContents (Google style). Each
// plan says how many tokens it bills, and answers only once the router has charged them.

import { HttpError, sendJson } from '../http/http.mjs'
import { collectText, countTokens, isRecord } from './answerText.mjs'
import { embeddingFor, embeddingToBase64, pngFor, wavTone } from './media.mjs'
import { IMAGE_TOKENS } from './models.mjs'

/** @typedef {import('./router.mjs').MediaEndpoint} MediaEndpoint */

/** Google's limit on one batchEmbedContents request. */
const GOOGLE_EMBED_BATCH = 2048

/**
 * A router error: `{ error: message }`, or a provider-shaped body.
 * @param {number} status
 * @param {string | Record<string, unknown>} error
 */
export function routerError(status, error) {
  return new HttpError(status, typeof error === 'string' ? { error } : error)
}

/**
 * @param {unknown} value
 * @param {number} fallback
 * @param {number} max
 */
function count(value, fallback, max) {
  const n = typeof value === 'number' && Number.isInteger(value) ? value : fallback
  if (n < 1 || n > max) throw routerError(400, `n must be a whole number from 1 to ${max}`)
  return n
}

/** @type {MediaEndpoint['plan']} */
export function planOpenAiEmbeddings({ body, modelName }) {
  const { input } = body
  const inputs =
    typeof input === 'string'
      ? [input]
      : Array.isArray(input)
        ? input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))
        : undefined
  if (!inputs || inputs.length === 0) throw routerError(400, 'input must be a string or a non-empty array')
  const dimensions =
    typeof body.dimensions === 'number' &&
    Number.isInteger(body.dimensions) &&
    body.dimensions > 0 &&
    body.dimensions <= 3072
      ? body.dimensions
      : 1536
  const inputTokens = inputs.reduce((sum, text) => sum + countTokens(text), 0)
  return {
    inputTokens,
    outputTokens: 0,
    send: (res) => {
      const data = inputs.map((text, index) => {
        const values = embeddingFor(text, dimensions)
        return {
          object: 'embedding',
          index,
          embedding: body.encoding_format === 'base64' ? embeddingToBase64(values) : values,
        }
      })
      sendJson(res, 200, {
        object: 'list',
        data,
        model: modelName,
        usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
      })
    },
  }
}

/** @type {MediaEndpoint['plan']} */
export function planOpenAiImages({ body }) {
  const prompt = typeof body.prompt === 'string' ? body.prompt : ''
  if (prompt === '') throw routerError(400, 'prompt is required')
  const n = count(body.n, 1, 10)
  const inputTokens = countTokens(prompt)
  return {
    inputTokens,
    outputTokens: n * IMAGE_TOKENS,
    send: (res) => {
      const data = Array.from({ length: n }, (_, index) => {
        const base64 = pngFor(`${prompt}#${index}`).toString('base64')
        return body.response_format === 'url'
          ? { url: `data:image/png;base64,${base64}`, revised_prompt: prompt }
          : { b64_json: base64, revised_prompt: prompt }
      })
      sendJson(res, 200, {
        created: Math.floor(Date.now() / 1000),
        data,
        usage: {
          input_tokens: inputTokens,
          output_tokens: n * IMAGE_TOKENS,
          total_tokens: inputTokens + n * IMAGE_TOKENS,
        },
      })
    },
  }
}

/** @type {MediaEndpoint['plan']} */
export function planTranscription({ body }) {
  const { file } = body
  if (!(file instanceof Blob)) throw routerError(400, 'file is required')
  const name = file instanceof File ? file.name : 'audio'
  const text = `This is the Echo dev server's transcript of ${name} (${file.size} bytes).`
  const outputTokens = countTokens(text)
  return {
    inputTokens: 0,
    outputTokens,
    send: (res) => {
      const format = typeof body.response_format === 'string' ? body.response_format : 'json'
      if (format === 'text' || format === 'srt' || format === 'vtt') {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' })
        res.end(`${text}\n`)
      } else if (format === 'verbose_json') {
        sendJson(res, 200, { task: 'transcribe', language: 'english', duration: 0.5, text, segments: [] })
      } else {
        sendJson(res, 200, {
          text,
          usage: { type: 'tokens', input_tokens: 0, output_tokens: outputTokens, total_tokens: outputTokens },
        })
      }
    },
  }
}

/** @type {MediaEndpoint['plan']} */
export function planSpeech({ body }) {
  const input = typeof body.input === 'string' ? body.input : ''
  if (input === '') throw routerError(400, 'input is required')
  return {
    inputTokens: countTokens(input),
    outputTokens: 0,
    send: (res) => {
      const wav = wavTone()
      res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': String(wav.length) })
      res.end(wav)
    },
  }
}

/** @type {MediaEndpoint['plan']} */
export function planGooglePredict({ body }) {
  const instances = Array.isArray(body.instances) ? body.instances : []
  const prompt = collectText(instances[0])
  if (prompt === '')
    throw routerError(400, {
      error: { code: 400, message: 'instances[0].prompt is required', status: 'INVALID_ARGUMENT' },
    })
  const parameters = isRecord(body.parameters) ? body.parameters : {}
  const n = count(parameters.sampleCount, 1, 8)
  return {
    inputTokens: countTokens(prompt),
    outputTokens: n * IMAGE_TOKENS,
    send: (res) => {
      const predictions = Array.from({ length: n }, (_, index) => ({
        bytesBase64Encoded: pngFor(`${prompt}#${index}`).toString('base64'),
        mimeType: 'image/png',
      }))
      sendJson(res, 200, { predictions })
    },
  }
}

/** @type {MediaEndpoint['plan']} */
export function planGoogleEmbedding({ body }) {
  if (!isRecord(body.content))
    throw routerError(400, { error: { code: 400, message: 'content is required', status: 'INVALID_ARGUMENT' } })
  const text = collectText(body.content)
  return {
    inputTokens: countTokens(text),
    outputTokens: 0,
    send: (res) =>
      sendJson(res, 200, { embedding: { values: embeddingFor(text, googleDimensions(body.outputDimensionality)) } }),
  }
}

/** @type {MediaEndpoint['plan']} */
export function planGoogleEmbeddings({ body }) {
  const requests = Array.isArray(body.requests) ? body.requests : []
  if (requests.length === 0 || requests.length > GOOGLE_EMBED_BATCH) {
    throw routerError(400, {
      error: {
        code: 400,
        message: `requests must hold 1 to ${GOOGLE_EMBED_BATCH} items, got ${requests.length}`,
        status: 'INVALID_ARGUMENT',
      },
    })
  }
  const texts = requests.map((request) => collectText(isRecord(request) ? request.content : undefined))
  return {
    inputTokens: texts.reduce((sum, text) => sum + countTokens(text), 0),
    outputTokens: 0,
    send: (res) => {
      const embeddings = texts.map((text, index) => {
        const request = requests[index]
        return {
          values: embeddingFor(text, googleDimensions(isRecord(request) ? request.outputDimensionality : undefined)),
        }
      })
      sendJson(res, 200, { embeddings })
    },
  }
}

/**
 * The vector length a Google embedding request asks for with `outputDimensionality`, else 768.
 * @param {unknown} wanted
 */
function googleDimensions(wanted) {
  return typeof wanted === 'number' && Number.isInteger(wanted) && wanted > 0 && wanted <= 3072 ? wanted : 768
}
