// Model answers in the router's wire shapes, whole or as server-sent events, for `echoHandlers`.
// Streams carry no Content-Type, as Echo's router sends them.

const CREATED = 1_767_225_600

/** The answer cut into the pieces a stream sends: words with their spaces. */
function piecesOf(answer: string): string[] {
  return answer.split(/(?<= )/)
}

const usageOf = (answer: string) => ({
  prompt_tokens: 5,
  completion_tokens: piecesOf(answer).length,
  total_tokens: 5 + piecesOf(answer).length,
})

const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`
const named = (type: string, payload: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`

/** `POST /chat/completions`: the whole answer, or its chunks (with usage last when asked). */
export const chatAnswer = {
  whole: (model: string, answer: string) => ({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
    usage: usageOf(answer),
  }),
  stream(model: string, answer: string, withUsage: boolean): string[] {
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      data({
        id: 'chatcmpl-test',
        object: 'chat.completion.chunk',
        created: CREATED,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })
    const usage = withUsage
      ? [
          data({
            id: 'chatcmpl-test',
            object: 'chat.completion.chunk',
            created: CREATED,
            model,
            choices: [],
            usage: usageOf(answer),
          }),
        ]
      : []
    return [
      chunk({ role: 'assistant', content: '' }, null),
      ...piecesOf(answer).map((piece) => chunk({ content: piece }, null)),
      chunk({}, 'stop'),
      ...usage,
      'data: [DONE]\n\n',
    ]
  },
}

/** `POST /responses` (OpenAI's Responses API, which the AI SDK's `openai(...)` calls). */
export const responsesAnswer = {
  whole: (model: string, answer: string, status: 'in_progress' | 'completed' = 'completed') => ({
    id: 'resp_test',
    object: 'response',
    created_at: CREATED,
    status,
    error: null,
    incomplete_details: null,
    model,
    output: status === 'completed' ? [messageItem(answer)] : [],
    usage:
      status === 'completed'
        ? {
            input_tokens: 5,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: piecesOf(answer).length,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 5 + piecesOf(answer).length,
          }
        : null,
  }),
  stream(model: string, answer: string): string[] {
    let sequence = 0
    const event = (type: string, fields: Record<string, unknown>) =>
      named(type, { sequence_number: sequence++, ...fields })
    const at = { item_id: 'msg_test', output_index: 0, content_index: 0 }
    return [
      event('response.created', { response: responsesAnswer.whole(model, answer, 'in_progress') }),
      event('response.output_item.added', {
        output_index: 0,
        item: { ...messageItem(''), status: 'in_progress', content: [] },
      }),
      event('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } }),
      ...piecesOf(answer).map((delta) => event('response.output_text.delta', { ...at, delta, logprobs: [] })),
      event('response.output_text.done', { ...at, text: answer, logprobs: [] }),
      event('response.output_item.done', { output_index: 0, item: messageItem(answer) }),
      event('response.completed', { response: responsesAnswer.whole(model, answer) }),
    ]
  },
}

function messageItem(answer: string) {
  return {
    id: 'msg_test',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: answer, annotations: [], logprobs: [] }],
  }
}

/** Anthropic's `POST /messages`. */
export const messagesAnswer = {
  whole: (model: string, answer: string) => ({
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: answer }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: piecesOf(answer).length },
  }),
  stream(model: string, answer: string): string[] {
    return [
      named('message_start', {
        message: {
          ...messagesAnswer.whole(model, ''),
          content: [],
          stop_reason: null,
          usage: { input_tokens: 5, output_tokens: 0 },
        },
      }),
      named('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ...piecesOf(answer).map((text) =>
        named('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
      ),
      named('content_block_stop', { index: 0 }),
      named('message_delta', {
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: piecesOf(answer).length },
      }),
      named('message_stop', {}),
    ]
  },
}

/** Google's `:generateContent`, and `:streamGenerateContent?alt=sse`. */
export const googleAnswer = {
  whole: (answer: string) => ({
    candidates: [{ content: { role: 'model', parts: [{ text: answer }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: 5,
      candidatesTokenCount: piecesOf(answer).length,
      totalTokenCount: 5 + piecesOf(answer).length,
    },
  }),
  stream(answer: string): string[] {
    const pieces = piecesOf(answer)
    return pieces.map((text, index) =>
      data({
        candidates: [
          {
            content: { role: 'model', parts: [{ text }] },
            ...(index === pieces.length - 1 ? { finishReason: 'STOP' } : {}),
            index: 0,
          },
        ],
        ...(index === pieces.length - 1 ? { usageMetadata: googleAnswer.whole(answer).usageMetadata } : {}),
      }),
    )
  },
}

/**
 * A body that sends `frames` one by one, `delayMs` apart (0: all at once), so a test can watch a
 * stream build up; it stops when the reader cancels.
 */
export function pacedBody(frames: readonly string[], delayMs: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let next = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next >= frames.length) return controller.close()
      const frame = encoder.encode(frames[next++])
      if (delayMs === 0 || next === 1) return controller.enqueue(frame)
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          controller.enqueue(frame)
          resolve()
        }, delayMs)
      })
    },
    cancel() {
      clearTimeout(timer)
    },
  })
}
