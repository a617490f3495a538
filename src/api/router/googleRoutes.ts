import type { RequestOptions } from '../EchoClient'
import type { EchoRouter } from './EchoRouter'
import type { BatchEmbedContentsResponse, EmbedContentInput, EmbedContentRequest, GenerateContentResponse, PredictRequest } from './googleTypes'
import { DEFAULT_IMAGE_ASPECT_RATIO, DEFAULT_IMAGE_COUNT, GOOGLE_EMBED_BATCH_LIMIT } from './routerDefaults'
import type { RouterTransport } from './routerTransport'

/**
 * The Google-style half of the router: `/models/{model}:<method>`.
 * @internal
 */
export function googleRoutes(transport: RouterTransport): EchoRouter['google'] {
  return {
    generateContent: (model, body, { signal }: RequestOptions = {}) =>
      transport.json({ path: modelPath(model, 'generateContent'), action: 'generating content', model, body, signal }),

    // `alt=sse` asks Google for server-sent events instead of one JSON array sent in pieces.
    streamGenerateContent: (model, body, { signal }: RequestOptions = {}) =>
      transport.stream<GenerateContentResponse>({ path: `${modelPath(model, 'streamGenerateContent')}?alt=sse`, action: 'streaming content', model, body, signal }),

    predict: (model, body, { signal }: RequestOptions = {}) =>
      transport.json({ path: modelPath(model, 'predict'), action: 'predicting', model, body: withImageDefaults(body), signal }),

    async embedContents(model, inputs, { signal }: RequestOptions = {}) {
      const embeddings: BatchEmbedContentsResponse['embeddings'] = []
      // One batch after another: a 402 or an abort stops the batches not yet sent from being billed.
      for (const batch of batchesOf(inputs, GOOGLE_EMBED_BATCH_LIMIT)) {
        const answer = await transport.json<BatchEmbedContentsResponse>({
          path: modelPath(model, 'batchEmbedContents'),
          action: 'embedding contents',
          model,
          body: { requests: batch.map((input) => toEmbedRequest(model, input)) },
          signal,
        })
        embeddings.push(...answer.embeddings)
      }
      return { embeddings }
    },
  }
}

/** `/models/gemini-2.0-flash:generateContent`; a `models/` prefix on the name is accepted. */
function modelPath(model: string, method: string): string {
  return `/models/${encodeURIComponent(model.replace(/^models\//, ''))}:${method}`
}

function withImageDefaults({ parameters, ...body }: PredictRequest): PredictRequest {
  return {
    ...body,
    parameters: {
      ...parameters,
      sampleCount: parameters?.sampleCount ?? DEFAULT_IMAGE_COUNT,
      aspectRatio: parameters?.aspectRatio ?? DEFAULT_IMAGE_ASPECT_RATIO,
    },
  }
}

function toEmbedRequest(model: string, input: EmbedContentInput): EmbedContentRequest {
  const name = `models/${model.replace(/^models\//, '')}`
  return typeof input === 'string' ? { model: name, content: { parts: [{ text: input }] } } : { ...input, model: input.model ?? name }
}

/** `items` cut into runs of at most `size`, in order. @internal */
function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = []
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size))
  return batches
}
