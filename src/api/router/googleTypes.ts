// Google-style (Gemini, Imagen) wire shapes the router speaks under `/models/{model}:<method>`: the
// fields relied on, typed; everything else passes through under an index signature.

/** A piece of content: text, or inline data and the like. */
export interface GooglePart {
  text?: string
  [field: string]: unknown
}

/** One turn of content. */
export interface GoogleContent {
  role?: 'user' | 'model'
  parts: readonly GooglePart[]
  [field: string]: unknown
}

/** `:generateContent` and `:streamGenerateContent`. */
export interface GenerateContentRequest {
  contents: readonly GoogleContent[]
  [field: string]: unknown
}

/** A whole answer; streamed, each event has this same shape with the next piece of text. */
export interface GenerateContentResponse {
  candidates?: Array<{ content?: GoogleContent; finishReason?: string; index?: number; [field: string]: unknown }>
  usageMetadata?: {
    promptTokenCount?: number
    candidatesTokenCount?: number
    totalTokenCount?: number
    [field: string]: unknown
  }
  [field: string]: unknown
}

/** `:predict` (Imagen); `sampleCount` defaults to 4 and `aspectRatio` to `1:1`. */
export interface PredictRequest {
  instances: readonly unknown[]
  parameters?: { sampleCount?: number; aspectRatio?: string; [field: string]: unknown }
  [field: string]: unknown
}

/** Predictions; for Imagen, each is an image as base64 with its MIME type. */
export interface PredictResponse {
  predictions: Array<{ bytesBase64Encoded?: string; mimeType?: string; [field: string]: unknown }>
  [field: string]: unknown
}

/** One input of `embedContents`: text, or a full request (`content`, `taskType`, ...). */
export type EmbedContentInput = string | EmbedContentRequest

/** One request of `:batchEmbedContents`; `model` is filled in when left out. */
export interface EmbedContentRequest {
  content: GoogleContent
  model?: string
  [field: string]: unknown
}

/** The embeddings, in the order of the inputs. */
export interface BatchEmbedContentsResponse {
  embeddings: Array<{ values: number[]; [field: string]: unknown }>
}
