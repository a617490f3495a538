// OpenAI-style wire shapes the router speaks: the fields echo-rtk and its users rely on, typed;
// everything else passes through under an index signature.

/** Token counts the router bills by. */
export interface OpenAiUsage {
  prompt_tokens: number
  completion_tokens?: number
  total_tokens: number
  [field: string]: unknown
}

/** One message of a chat. `content` is text, or parts (text, images, audio) as the API takes them. */
export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool'
  content: string | ReadonlyArray<{ type: string; [field: string]: unknown }> | null
  [field: string]: unknown
}

/** `POST /chat/completions`. */
export interface ChatCompletionRequest {
  model: string
  messages: readonly ChatMessage[]
  [field: string]: unknown
}

/** A whole chat answer. */
export interface ChatCompletion {
  id: string
  object: 'chat.completion'
  created: number
  model: string
  choices: Array<{
    index: number
    message: { role: 'assistant'; content: string | null; [field: string]: unknown }
    finish_reason: string | null
    [field: string]: unknown
  }>
  usage?: OpenAiUsage
  [field: string]: unknown
}

/** One streamed piece of a chat answer; the last one may carry only `usage`. */
export interface ChatCompletionChunk {
  id: string
  object: 'chat.completion.chunk'
  created: number
  model: string
  choices: Array<{
    index: number
    delta: { role?: string; content?: string | null; [field: string]: unknown }
    finish_reason: string | null
    [field: string]: unknown
  }>
  usage?: OpenAiUsage | null
  [field: string]: unknown
}

/** `POST /responses`: `input` is text or a list of input items. */
export interface ResponseRequest {
  model: string
  input: string | readonly unknown[]
  [field: string]: unknown
}

/** A whole Responses API answer. */
export interface ModelResponse {
  id: string
  object: 'response'
  status: string
  model: string
  output: Array<{ type: string; [field: string]: unknown }>
  [field: string]: unknown
}

/** One streamed Responses API event (`response.output_text.delta`, `response.completed`, ...). */
export interface ResponseStreamEvent {
  type: string
  [field: string]: unknown
}

/** `POST /completions` (legacy text completions). */
export interface CompletionRequest {
  model: string
  prompt: string | readonly string[]
  [field: string]: unknown
}

/** A text completion; streamed, each chunk has this same shape. */
export interface Completion {
  id: string
  object: 'text_completion'
  created: number
  model: string
  choices: Array<{ index: number; text: string; finish_reason: string | null; [field: string]: unknown }>
  usage?: OpenAiUsage
  [field: string]: unknown
}

/** `POST /embeddings`. */
export interface EmbeddingRequest {
  model: string
  input: string | readonly string[] | readonly number[] | ReadonlyArray<readonly number[]>
  [field: string]: unknown
}

/** Embeddings in the order of the inputs (`index`). */
export interface EmbeddingResponse {
  object: 'list'
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>
  model: string
  usage: OpenAiUsage
  [field: string]: unknown
}

/** `POST /images/generations`; `n` defaults to 4 and `size` to `1024x1024`. */
export interface ImageGenerationRequest {
  model: string
  prompt: string
  n?: number
  size?: string
  [field: string]: unknown
}

/** Generated images, as URLs or base64 (`b64_json`) depending on the model and `response_format`. */
export interface ImagesResponse {
  created: number
  data: Array<{ url?: string; b64_json?: string; revised_prompt?: string; [field: string]: unknown }>
  [field: string]: unknown
}

/** `POST /audio/transcriptions`, sent as multipart; `file` is the recording. */
export interface TranscriptionRequest {
  file: Blob
  model: string
  language?: string
  prompt?: string
  response_format?: 'json' | 'text' | 'srt' | 'verbose_json' | 'vtt'
  [field: string]: unknown
}

/** The transcript. For `text`, `srt` and `vtt` formats the router's plain-text answer is put in `text`. */
export interface Transcription {
  text: string
  [field: string]: unknown
}

/** `POST /audio/speech`: the answer is the audio itself, as a `Blob`. */
export interface SpeechRequest {
  model: string
  input: string
  voice: string
  response_format?: 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm'
  [field: string]: unknown
}
