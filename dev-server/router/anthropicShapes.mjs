// Anthropic's wire shapes for messages, whole and streamed (message_start, content_block_start,
// ping, content_block_delta ..., content_block_stop, message_delta, message_stop).

/** @typedef {import('./openaiShapes.mjs').TextContext} TextContext */
/** @typedef {import('./openaiShapes.mjs').Frame} Frame */

export const messages = {
  /** @param {TextContext} ctx */
  complete({ id, model, answer }) {
    return {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: answer.text }],
      stop_reason: answer.truncated ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: answer.inputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: answer.tokens.length,
      },
    }
  },
  /**
   * @param {TextContext} ctx
   * @returns {Frame[]}
   */
  stream({ id, model, answer }) {
    /** @param {string} type @param {Record<string, unknown>} fields */
    const event = (type, fields = {}) => ({ event: type, data: { type, ...fields } })
    const head = [
      event('message_start', {
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: answer.inputTokens,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 1,
          },
        },
      }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      event('ping'),
    ]
    const pieces = answer.tokens.map((token) => ({
      events: [event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: token } })],
      tokens: 1,
    }))
    const tail = [
      event('content_block_stop', { index: 0 }),
      event('message_delta', {
        delta: { stop_reason: answer.truncated ? 'max_tokens' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: answer.tokens.length },
      }),
      event('message_stop'),
    ]
    return [{ events: head, tokens: 0 }, ...pieces, { events: tail, tokens: 0 }]
  },
}

/** A call of the request's first tool in Anthropic's shape: a `tool_use` block, `stop_reason: 'tool_use'`. */
export const messagesToolCall = {
  /** @param {TextContext} ctx @param {import('./toolCalls.mjs').ToolCall} call */
  complete({ id, model, answer }, call) {
    return {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'tool_use', id: call.id, name: call.name, input: call.args }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: answer.inputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: answer.tokens.length,
      },
    }
  },
  /**
   * @param {TextContext} ctx
   * @param {import('./toolCalls.mjs').ToolCall} call
   * @returns {Frame[]}
   */
  stream({ id, model, answer }, call) {
    /** @param {string} type @param {Record<string, unknown>} fields */
    const event = (type, fields = {}) => ({ event: type, data: { type, ...fields } })
    const usage = {
      input_tokens: answer.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1,
    }
    return [
      {
        events: [
          event('message_start', {
            message: {
              id,
              type: 'message',
              role: 'assistant',
              model,
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage,
            },
          }),
          event('content_block_start', {
            index: 0,
            content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
          }),
        ],
        tokens: 0,
      },
      {
        events: [
          event('content_block_delta', {
            index: 0,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) },
          }),
        ],
        tokens: answer.tokens.length,
      },
      {
        events: [
          event('content_block_stop', { index: 0 }),
          event('message_delta', {
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: answer.tokens.length },
          }),
          event('message_stop'),
        ],
        tokens: 0,
      },
    ]
  },
}
