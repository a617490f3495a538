import { EchoError } from '../../errors'
import type { RequestOptions } from '../EchoClient'
import type { EchoRouter } from './EchoRouter'
import { toFormData } from './multipart'
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  Completion,
  CompletionRequest,
  ModelResponse,
  ResponseRequest,
  ResponseStreamEvent,
  Transcription,
  TranscriptionRequest,
} from './openAiTypes'
import { DEFAULT_IMAGE_COUNT, DEFAULT_IMAGE_SIZE } from './routerDefaults'
import { optionsOf, requireBody } from './routerInput'
import type { RouterCall, RouterTransport } from './routerTransport'
import { streamingCreate } from './streamingCreate'

/** Transcript formats the router answers as plain text rather than JSON. */
const TEXT_TRANSCRIPT_FORMATS = new Set(['text', 'srt', 'vtt'])

/**
 * The OpenAI-style half of the router: chat, responses, completions, embeddings, images, audio.
 * @internal
 */
export function openAiRoutes(
  transport: RouterTransport,
): Pick<EchoRouter, 'chat' | 'responses' | 'completions' | 'embeddings' | 'images' | 'audio'> {
  /** A JSON call to `path`, its body checked (and given its defaults) before anything is sent. */
  const jsonCall =
    <Body extends { model: string }>(
      path: string,
      action: string,
      withDefaults: (body: Body) => Body = (body) => body,
    ) =>
    (body: Body | null | undefined, options?: RequestOptions | null): RouterCall => {
      const checked = withDefaults(requireBody(body, action))
      return { path, action, model: checked.model, body: checked, ...optionsOf(options) }
    }
  const imagesCall = jsonCall<{ model: string; n?: number; size?: string }>(
    '/images/generations',
    'generating images',
    (body) => ({
      ...body,
      n: body.n ?? DEFAULT_IMAGE_COUNT,
      size: body.size ?? DEFAULT_IMAGE_SIZE,
    }),
  )

  return {
    chat: {
      completions: {
        create: streamingCreate<ChatCompletionRequest, ChatCompletion, ChatCompletionChunk>(
          transport,
          jsonCall('/chat/completions', 'creating chat completion'),
        ),
      },
    },
    responses: {
      create: streamingCreate<ResponseRequest, ModelResponse, ResponseStreamEvent>(
        transport,
        jsonCall('/responses', 'creating response'),
      ),
    },
    completions: {
      create: streamingCreate<CompletionRequest, Completion, Completion>(
        transport,
        jsonCall('/completions', 'creating completion'),
      ),
    },
    embeddings: {
      create: async (body, options) => transport.json(jsonCall('/embeddings', 'creating embeddings')(body, options)),
    },
    images: {
      generate: async (body, options) => transport.json(imagesCall(body, options)),
    },
    audio: {
      transcriptions: {
        create: async (body, options): Promise<Transcription> => {
          const action = 'transcribing audio'
          const checked = requireBody<TranscriptionRequest>(body, action)
          if (!(checked.file instanceof Blob)) {
            throw new EchoError({
              code: 'UNKNOWN_ERROR',
              reason: 'bad-argument',
              message: 'The recording must be given as file, a Blob or File',
              action,
            })
          }
          const call: RouterCall = {
            path: '/audio/transcriptions',
            action,
            model: checked.model,
            body: toFormData(checked),
            ...optionsOf(options),
          }
          if (TEXT_TRANSCRIPT_FORMATS.has(checked.response_format ?? 'json'))
            return { text: await transport.text(call) }
          return transport.json(call)
        },
      },
      speech: {
        create: async (body, options) => transport.blob(jsonCall('/audio/speech', 'generating speech')(body, options)),
      },
    },
  }
}
