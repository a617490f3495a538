// OpenAI's wire shapes for text answers: chat completions, responses and completions, whole and
// streamed (chat.completion.chunk ... `data: [DONE]`; the Responses API's typed events).

/**
 * @typedef {object} SseEvent
 * @property {string} [event] the `event:` line, when the style names its events
 * @property {unknown} data an object (sent as JSON) or a raw string such as `[DONE]`
 */

/**
 * One write of a stream: its events and how many output tokens they carry.
 * @typedef {object} Frame
 * @property {SseEvent[]} events
 * @property {number} tokens
 */

/**
 * @typedef {object} TextContext
 * @property {string} id
 * @property {number} created epoch seconds
 * @property {string} model
 * @property {import('./answerText.mjs').TextAnswer} answer
 * @property {Record<string, unknown>} body the request
 */

/** @param {TextContext} ctx */
const usageOf = ({ answer }) => ({
  prompt_tokens: answer.inputTokens,
  completion_tokens: answer.tokens.length,
  total_tokens: answer.inputTokens + answer.tokens.length,
})

/**
 * `stream_options: { include_usage: true }`: every chunk carries `usage: null` and a last chunk with no
 * choices carries the usage, before `[DONE]`, as OpenAI streams it.
 * @param {TextContext} ctx
 */
const wantsUsage = ({ body }) => isRecord(body.stream_options) && body.stream_options.include_usage === true

export const chatCompletions = {
  /** @param {TextContext} ctx */
  complete(ctx) {
    const { id, created, model, answer } = ctx
    return {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer.text, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: answer.truncated ? 'length' : 'stop',
        },
      ],
      usage: usageOf(ctx),
      service_tier: 'default',
      system_fingerprint: null,
    }
  },
  /**
   * @param {TextContext} ctx
   * @returns {Frame[]}
   */
  stream(ctx) {
    const { id, created, model, answer } = ctx
    const withUsage = wantsUsage(ctx)
    /** @param {Record<string, unknown>} delta @param {string | null} finish */
    const chunk = (delta, finish = null) => ({
      data: {
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...(withUsage ? { usage: null } : {}),
      },
    })
    return [
      { events: [chunk({ role: 'assistant', content: '', refusal: null })], tokens: 0 },
      ...answer.tokens.map((token) => ({ events: [chunk({ content: token })], tokens: 1 })),
      {
        events: [
          chunk({}, answer.truncated ? 'length' : 'stop'),
          ...(withUsage
            ? [
                {
                  data: {
                    id,
                    object: 'chat.completion.chunk',
                    created,
                    model,
                    system_fingerprint: null,
                    choices: [],
                    usage: usageOf(ctx),
                  },
                },
              ]
            : []),
          { data: '[DONE]' },
        ],
        tokens: 0,
      },
    ]
  },
}

/**
 * A call of the request's first tool, in chat completions' shape, whole and streamed: the
 * assistant's `tool_calls`, `finish_reason: 'tool_calls'`.
 */
export const chatCompletionsToolCall = {
  /** @param {TextContext} ctx @param {import('./toolCalls.mjs').ToolCall} call */
  complete(ctx, call) {
    const { id, created, model } = ctx
    const toolCall = {
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }
    return {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: [toolCall], refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: usageOf(ctx),
      service_tier: 'default',
      system_fingerprint: null,
    }
  },
  /**
   * @param {TextContext} ctx
   * @param {import('./toolCalls.mjs').ToolCall} call
   * @returns {Frame[]}
   */
  stream(ctx, call) {
    const { id, created, model } = ctx
    const withUsage = wantsUsage(ctx)
    /** @param {Record<string, unknown>} delta @param {string | null} finish */
    const chunk = (delta, finish = null) => ({
      data: {
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...(withUsage ? { usage: null } : {}),
      },
    })
    return [
      {
        events: [
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
          }),
        ],
        tokens: 0,
      },
      {
        events: [chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(call.args) } }] })],
        tokens: ctx.answer.tokens.length,
      },
      {
        events: [
          chunk({}, 'tool_calls'),
          ...(withUsage
            ? [
                {
                  data: {
                    id,
                    object: 'chat.completion.chunk',
                    created,
                    model,
                    system_fingerprint: null,
                    choices: [],
                    usage: usageOf(ctx),
                  },
                },
              ]
            : []),
          { data: '[DONE]' },
        ],
        tokens: 0,
      },
    ]
  },
}

export const completions = {
  /** @param {TextContext} ctx */
  complete(ctx) {
    const { id, created, model, answer } = ctx
    return {
      id,
      object: 'text_completion',
      created,
      model,
      choices: [{ text: answer.text, index: 0, logprobs: null, finish_reason: answer.truncated ? 'length' : 'stop' }],
      usage: usageOf(ctx),
    }
  },
  /**
   * @param {TextContext} ctx
   * @returns {Frame[]}
   */
  stream(ctx) {
    const { id, created, model, answer } = ctx
    const withUsage = wantsUsage(ctx)
    /** @param {string} text @param {string | null} finish */
    const chunk = (text, finish = null) => ({
      data: {
        id,
        object: 'text_completion',
        created,
        model,
        choices: [{ text, index: 0, logprobs: null, finish_reason: finish }],
        ...(withUsage ? { usage: null } : {}),
      },
    })
    return [
      ...answer.tokens.map((token) => ({ events: [chunk(token)], tokens: 1 })),
      {
        events: [
          chunk('', answer.truncated ? 'length' : 'stop'),
          ...(withUsage
            ? [{ data: { id, object: 'text_completion', created, model, choices: [], usage: usageOf(ctx) } }]
            : []),
          { data: '[DONE]' },
        ],
        tokens: 0,
      },
    ]
  },
}

export const responses = {
  /** @param {TextContext} ctx */
  complete(ctx) {
    return responseObject(ctx, 'done')
  },
  /**
   * @param {TextContext} ctx
   * @returns {Frame[]}
   */
  stream(ctx) {
    const { answer } = ctx
    const itemId = messageId(ctx)
    let sequence = 0
    /** @param {string} type @param {Record<string, unknown>} fields */
    const event = (type, fields) => ({ event: type, data: { type, sequence_number: sequence++, ...fields } })
    const at = { item_id: itemId, output_index: 0, content_index: 0 }
    const part = { type: 'output_text', text: answer.text, annotations: [], logprobs: [] }
    const head = [
      event('response.created', { response: responseObject(ctx, 'started') }),
      event('response.in_progress', { response: responseObject(ctx, 'started') }),
      event('response.output_item.added', {
        output_index: 0,
        item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      }),
      event('response.content_part.added', { ...at, part: { ...part, text: '' } }),
    ]
    const pieces = answer.tokens.map((token) => ({
      events: [event('response.output_text.delta', { ...at, delta: token, logprobs: [] })],
      tokens: 1,
    }))
    const tail = [
      event('response.output_text.done', { ...at, text: answer.text, logprobs: [] }),
      event('response.content_part.done', { ...at, part }),
      event('response.output_item.done', { output_index: 0, item: messageItem(ctx) }),
      event(answer.truncated ? 'response.incomplete' : 'response.completed', { response: responseObject(ctx, 'done') }),
    ]
    return [{ events: head, tokens: 0 }, ...pieces, { events: tail, tokens: 0 }]
  },
}

/** A call of the request's first tool in the Responses API's shape: a `function_call` output item. */
export const responsesToolCall = {
  /** @param {TextContext} ctx @param {import('./toolCalls.mjs').ToolCall} call */
  complete(ctx, call) {
    return responseObject(ctx, 'done', [functionCallItem(ctx, call, 'completed')])
  },
  /**
   * @param {TextContext} ctx
   * @param {import('./toolCalls.mjs').ToolCall} call
   * @returns {Frame[]}
   */
  stream(ctx, call) {
    let sequence = 0
    /** @param {string} type @param {Record<string, unknown>} fields */
    const event = (type, fields) => ({ event: type, data: { type, sequence_number: sequence++, ...fields } })
    const item = functionCallItem(ctx, call, 'completed')
    const at = { item_id: item.id, output_index: 0 }
    return [
      {
        events: [
          event('response.created', { response: responseObject(ctx, 'started') }),
          event('response.in_progress', { response: responseObject(ctx, 'started') }),
          event('response.output_item.added', {
            output_index: 0,
            item: { ...item, arguments: '', status: 'in_progress' },
          }),
        ],
        tokens: 0,
      },
      {
        events: [event('response.function_call_arguments.delta', { ...at, delta: item.arguments })],
        tokens: ctx.answer.tokens.length,
      },
      {
        events: [
          event('response.function_call_arguments.done', { ...at, arguments: item.arguments }),
          event('response.output_item.done', { output_index: 0, item }),
          event('response.completed', { response: responseObject(ctx, 'done', [item]) }),
        ],
        tokens: 0,
      },
    ]
  },
}

/**
 * @param {TextContext} ctx
 * @param {import('./toolCalls.mjs').ToolCall} call
 * @param {string} status
 */
function functionCallItem(ctx, call, status) {
  return {
    id: `fc_${ctx.id.replace(/^resp_/, '')}`,
    type: 'function_call',
    status,
    call_id: call.id,
    name: call.name,
    arguments: JSON.stringify(call.args),
  }
}

/**
 * The Responses API's response object, before its output (`started`) or with it (`done`).
 * @param {TextContext} ctx
 * @param {'started' | 'done'} phase
 * @param {unknown[]} [output] what it answered, when done: the message by default
 */
function responseObject(ctx, phase, output) {
  const { id, created, model, answer, body } = ctx
  const done = phase === 'done'
  return {
    id,
    object: 'response',
    created_at: created,
    status: !done ? 'in_progress' : answer.truncated ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: done && answer.truncated ? { reason: 'max_output_tokens' } : null,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    max_output_tokens: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : null,
    model,
    output: done ? (output ?? [messageItem(ctx)]) : [],
    parallel_tool_calls: true,
    temperature: typeof body.temperature === 'number' ? body.temperature : 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    usage: done
      ? {
          input_tokens: answer.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: answer.tokens.length,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: answer.inputTokens + answer.tokens.length,
        }
      : null,
    metadata: {},
  }
}

/** @param {TextContext} ctx */
function messageItem(ctx) {
  return {
    id: messageId(ctx),
    type: 'message',
    status: ctx.answer.truncated ? 'incomplete' : 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: ctx.answer.text, annotations: [], logprobs: [] }],
  }
}

/** @param {TextContext} ctx */
const messageId = (ctx) => `msg_${ctx.id.replace(/^resp_/, '')}`

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
