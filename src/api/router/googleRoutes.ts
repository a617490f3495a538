import { EchoError } from '../../errors'
import type { RequestOptions } from '../EchoClient'
import type { EchoRouter } from './EchoRouter'
import type {
  BatchEmbedContentsResponse,
  EmbedContentInput,
  EmbedContentRequest,
  GenerateContentResponse,
  PredictRequest,
} from './googleTypes'
import { DEFAULT_IMAGE_ASPECT_RATIO, DEFAULT_IMAGE_COUNT, GOOGLE_EMBED_BATCH_LIMIT } from './routerDefaults'
import { optionsOf, requireModel } from './routerInput'
import type { RouterCall, RouterTransport } from './routerTransport'

/**
 * The Google-style half of the router: `/models/{model}:<method>`.
 * @internal
 */
export function googleRoutes(transport: RouterTransport): EchoRouter['google'] {
  /** A call to `/models/{model}:<method>`, its model and body checked before anything is sent. */
  const modelCall = (
    model: unknown,
    method: string,
    action: string,
    body: unknown,
    options: RequestOptions | null | undefined,
  ): RouterCall => {
    const name = requireModel(model, action)
    if (typeof body !== 'object' || body === null) {
      throw new EchoError({
        code: 'UNKNOWN_ERROR',
        reason: 'bad-argument',
        message: `The request body must be an object (got ${String(body)})`,
        action,
      })
    }
    return { path: modelPath(name, method), action, model: name, body, ...optionsOf(options) }
  }

  return {
    generateContent: async (model, body, options) =>
      transport.json(modelCall(model, 'generateContent', 'generating content', body, options)),

    // `alt=sse` asks Google for server-sent events instead of one JSON array sent in pieces.
    streamGenerateContent: async (model, body, options) => {
      const call = modelCall(model, 'streamGenerateContent', 'streaming content', body, options)
      return transport.stream<GenerateContentResponse>({ ...call, path: `${call.path}?alt=sse` })
    },

    predict: async (model, body, options) => {
      const call = modelCall(model, 'predict', 'predicting', body, options)
      return transport.json({ ...call, body: withImageDefaults(body) })
    },

    async embedContents(model, inputs, options) {
      const action = 'embedding contents'
      const name = requireModel(model, action)
      const list: unknown = inputs
      if (!Array.isArray(list))
        throw new EchoError({
          code: 'UNKNOWN_ERROR',
          reason: 'bad-argument',
          message: `The inputs must be an array of texts or requests (got ${typeof list})`,
          action,
        })
      const embeddings: BatchEmbedContentsResponse['embeddings'] = []
      // One batch after another: a 402 or an abort stops the batches not yet sent from being billed.
      for (const batch of batchesOf(inputs, GOOGLE_EMBED_BATCH_LIMIT)) {
        const body = { requests: batch.map((input) => toEmbedRequest(name, input)) }
        const answer = await transport.json<BatchEmbedContentsResponse>(
          modelCall(name, 'batchEmbedContents', action, body, options),
        )
        if (!Array.isArray(answer?.embeddings))
          throw new EchoError({
            code: 'UNKNOWN_ERROR',
            reason: 'bad-answer',
            message: 'The router answered without embeddings',
            action,
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
  if (typeof input === 'string') return { model: name, content: { parts: [{ text: input }] } }
  if (typeof input !== 'object' || input === null) {
    throw new EchoError({
      code: 'UNKNOWN_ERROR',
      reason: 'bad-argument',
      message: `Each input must be a text or a request object (got ${String(input)})`,
      action: 'embedding contents',
    })
  }
  return { ...input, model: input.model ?? name }
}

/** `items` cut into runs of at most `size`, in order. @internal */
function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = []
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size))
  return batches
}
