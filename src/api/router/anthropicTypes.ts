// Anthropic-style wire shapes the router speaks (`POST /messages`): the fields relied on, typed;
// everything else passes through under an index signature.

/** One turn of the conversation. */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant'
  content: string | ReadonlyArray<{ type: string; [field: string]: unknown }>
  [field: string]: unknown
}

/** `POST /messages`; `max_tokens` defaults to 4096. */
export interface MessageRequest {
  model: string
  messages: readonly AnthropicMessageParam[]
  max_tokens?: number
  system?: string | ReadonlyArray<{ type: string; [field: string]: unknown }>
  [field: string]: unknown
}

/** A block of the answer: `text`, `tool_use`, `thinking`, ... */
export interface AnthropicContentBlock {
  type: string
  text?: string
  [field: string]: unknown
}

/** A whole Anthropic answer. */
export interface AnthropicMessage {
  id: string
  type: 'message'
  role: 'assistant'
  model: string
  content: AnthropicContentBlock[]
  stop_reason: string | null
  usage: { input_tokens: number; output_tokens: number; [field: string]: unknown }
  [field: string]: unknown
}

/**
 * One streamed event: `message_start`, `content_block_start`, `content_block_delta` (text in
 * `delta.text`), `content_block_stop`, `message_delta`, `message_stop`, `ping`.
 */
export interface AnthropicStreamEvent {
  type: string
  index?: number
  delta?: { type: string; text?: string; [field: string]: unknown }
  message?: AnthropicMessage
  [field: string]: unknown
}
