import type { RequestOptions } from '../EchoClient'
import type { EchoRouter } from './EchoRouter'
import { toFormData } from './multipart'
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, Completion, CompletionRequest, ModelResponse, ResponseRequest, ResponseStreamEvent, Transcription } from './openAiTypes'
import { DEFAULT_IMAGE_COUNT, DEFAULT_IMAGE_SIZE } from './routerDefaults'
import type { RouterCall, RouterTransport } from './routerTransport'
import { streamingCreate } from './streamingCreate'

/** Transcript formats the router answers as plain text rather than JSON. */
const TEXT_TRANSCRIPT_FORMATS = new Set(['text', 'srt', 'vtt'])

/**
 * The OpenAI-style half of the router: chat, responses, completions, embeddings, images, audio.
 * @internal
 */
export function openAiRoutes(transport: RouterTransport): Pick<EchoRouter, 'chat' | 'responses' | 'completions' | 'embeddings' | 'images' | 'audio'> {
  const jsonCall = (path: string, action: string) => (body: { model: string }, { signal }: RequestOptions = {}): RouterCall => ({ path, action, model: body.model, body, signal })

  return {
    chat: {
      completions: {
        create: streamingCreate<ChatCompletionRequest, ChatCompletion, ChatCompletionChunk>(transport, jsonCall('/chat/completions', 'creating chat completion')),
      },
    },
    responses: {
      create: streamingCreate<ResponseRequest, ModelResponse, ResponseStreamEvent>(transport, jsonCall('/responses', 'creating response')),
    },
    completions: {
      create: streamingCreate<CompletionRequest, Completion, Completion>(transport, jsonCall('/completions', 'creating completion')),
    },
    embeddings: {
      create: (body, options) => transport.json(jsonCall('/embeddings', 'creating embeddings')(body, options)),
    },
    images: {
      generate: (body, options) => {
        const withDefaults = { ...body, n: body.n ?? DEFAULT_IMAGE_COUNT, size: body.size ?? DEFAULT_IMAGE_SIZE }
        return transport.json(jsonCall('/images/generations', 'generating images')(withDefaults, options))
      },
    },
    audio: {
      transcriptions: {
        create: async (body, { signal }: RequestOptions = {}): Promise<Transcription> => {
          const call: RouterCall = { path: '/audio/transcriptions', action: 'transcribing audio', model: body.model, body: toFormData(body), signal }
          if (TEXT_TRANSCRIPT_FORMATS.has(body.response_format ?? 'json')) return { text: await transport.text(call) }
          return transport.json(call)
        },
      },
      speech: {
        create: (body, options) => transport.blob(jsonCall('/audio/speech', 'generating speech')(body, options)),
      },
    },
  }
}
