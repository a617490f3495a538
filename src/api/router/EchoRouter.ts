import type { RequestOptions } from '../EchoClient'
import type { RefreshCoordinatorOptions } from '../refreshCoordinator'
import type { FetchFunction, TokenProvider } from '../tokenProvider'
import type { AnthropicMessage, AnthropicStreamEvent, MessageRequest } from './anthropicTypes'
import type { EchoStream } from './eventStream'
import type {
  BatchEmbedContentsResponse,
  EmbedContentInput,
  GenerateContentRequest,
  GenerateContentResponse,
  PredictRequest,
  PredictResponse,
} from './googleTypes'
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  Completion,
  CompletionRequest,
  EmbeddingRequest,
  EmbeddingResponse,
  ImageGenerationRequest,
  ImagesResponse,
  ModelResponse,
  ResponseRequest,
  ResponseStreamEvent,
  SpeechRequest,
  Transcription,
  TranscriptionRequest,
} from './openAiTypes'

/** Options of {@link createEchoRouter}. */
export interface EchoRouterOptions extends RefreshCoordinatorOptions {
  /**
   * Where the user's token comes from and how it is refreshed. Pass the one your session's other
   * clients use, so that a 401 here and one elsewhere lead to a single refresh.
   */
  tokenProvider: TokenProvider
  /** The model router host. Defaults to `DEFAULT_ROUTER_URL`. */
  baseRouterUrl?: string
  /** The `fetch` to send with; the global `fetch`, looked up at call time, when left out. */
  fetch?: FetchFunction
  /** The most one call may cost, in US dollars, as `createEchoFetch`'s `maxCallCost`. None when left out. */
  maxCallCost?: number | null
}

/**
 * A `create` that answers the parsed JSON, or an {@link EchoStream} of parsed events when the body
 * has `stream: true`.
 *
 * @inline
 */
export interface StreamingCreate<Body, Answer, Event> {
  (body: Body & { stream: true }, options?: RequestOptions): Promise<EchoStream<Event>>
  (body: Body & { stream?: false | null | undefined }, options?: RequestOptions): Promise<Answer>
  (body: Body & { stream?: boolean | null | undefined }, options?: RequestOptions): Promise<Answer | EchoStream<Event>>
}

/**
 * Echo's model router, in the shapes of the official OpenAI, Anthropic and Google SDKs. Every call
 * is billed to the signed-in user and fails with an `EchoError`: `isInsufficientFunds(error)` is
 * true when the user's credits ran out.
 */
export interface EchoRouter {
  chat: {
    completions: {
      /** `POST /chat/completions`. */
      create: StreamingCreate<ChatCompletionRequest, ChatCompletion, ChatCompletionChunk>
    }
  }
  responses: {
    /** `POST /responses`. */
    create: StreamingCreate<ResponseRequest, ModelResponse, ResponseStreamEvent>
  }
  completions: {
    /** `POST /completions`. */
    create: StreamingCreate<CompletionRequest, Completion, Completion>
  }
  embeddings: {
    /** `POST /embeddings`. */
    create(body: EmbeddingRequest, options?: RequestOptions): Promise<EmbeddingResponse>
  }
  images: {
    /** `POST /images/generations`; `n` defaults to 4, `size` to `1024x1024`. */
    generate(body: ImageGenerationRequest, options?: RequestOptions): Promise<ImagesResponse>
  }
  audio: {
    transcriptions: {
      /** `POST /audio/transcriptions`, the recording sent as a multipart file. */
      create(body: TranscriptionRequest, options?: RequestOptions): Promise<Transcription>
    }
    speech: {
      /** `POST /audio/speech`: the audio, as a `Blob`. */
      create(body: SpeechRequest, options?: RequestOptions): Promise<Blob>
    }
  }
  messages: {
    /** Anthropic's `POST /messages`; `max_tokens` defaults to 4096. */
    create: StreamingCreate<MessageRequest, AnthropicMessage, AnthropicStreamEvent>
  }
  google: {
    /** `POST /models/{model}:generateContent`. */
    generateContent(
      model: string,
      body: GenerateContentRequest,
      options?: RequestOptions,
    ): Promise<GenerateContentResponse>
    /** `POST /models/{model}:streamGenerateContent?alt=sse`: always a stream. */
    streamGenerateContent(
      model: string,
      body: GenerateContentRequest,
      options?: RequestOptions,
    ): Promise<EchoStream<GenerateContentResponse>>
    /** `POST /models/{model}:predict` (Imagen); `sampleCount` defaults to 4, `aspectRatio` to `1:1`. */
    predict(model: string, body: PredictRequest, options?: RequestOptions): Promise<PredictResponse>
    /**
     * `POST /models/{model}:batchEmbedContents`, one request per 2,048 inputs, sent one after
     * another (a failure stops the rest from being billed); the embeddings come back in input order.
     */
    embedContents(
      model: string,
      inputs: readonly EmbedContentInput[],
      options?: RequestOptions,
    ): Promise<BatchEmbedContentsResponse>
  }
}
