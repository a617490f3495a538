// Tool round trips, so a route with tools runs locally: a request that offers tools and
// carries no tool result yet is answered with one deterministic call of the first tool; once the
// conversation carries the tool's result, the answer is text that uses it. Every style's shapes:
// OpenAI chat and responses, Anthropic messages, Google contents.

import { isRecord, lastUserText } from './answerText.mjs'

/**
 * @typedef {object} ToolCall
 * @property {string} id
 * @property {string} name
 * @property {Record<string, unknown>} args
 */

/**
 * The call a request asks for: its first tool, when it offers tools and the conversation has no
 * tool result yet; otherwise undefined.
 * @param {Record<string, unknown>} body
 * @param {string} id
 * @returns {ToolCall | undefined}
 */
export function toolCallFor(body, id) {
  if (toolResultOf(body) !== undefined) return undefined
  const tool = firstTool(body)
  return tool && { id, name: tool.name, args: argumentsFor(tool.parameters, lastUserText(body)) }
}

/**
 * The result of the last tool call in the conversation, as text, with the tool's name when it is
 * known; undefined when there is none.
 * @param {Record<string, unknown>} body
 * @returns {{ name: string, result: string } | undefined}
 */
export function toolResultOf(body) {
  const turns = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.input)
      ? body.input
      : Array.isArray(body.contents)
        ? body.contents
        : []
  const namesById = new Map()
  /** @type {{ name: string, result: string } | undefined} */
  let found
  for (const turn of turns.filter(isRecord)) {
    // A new question from the user starts a new round: results before it are spent.
    if (asksAnew(turn)) found = undefined
    // OpenAI chat: the assistant's tool_calls, then { role: 'tool', tool_call_id, content }.
    for (const call of Array.isArray(turn.tool_calls) ? turn.tool_calls.filter(isRecord) : []) {
      if (isRecord(call.function)) namesById.set(call.id, call.function.name)
    }
    if (turn.role === 'tool')
      found = { name: String(namesById.get(turn.tool_call_id) ?? 'tool'), result: textOf(turn.content) }
    // OpenAI responses: { type: 'function_call', call_id, name }, then { type: 'function_call_output', call_id, output }.
    if (turn.type === 'function_call') namesById.set(turn.call_id, turn.name)
    if (turn.type === 'function_call_output')
      found = { name: String(namesById.get(turn.call_id) ?? 'tool'), result: textOf(turn.output) }
    for (const block of Array.isArray(turn.content) ? turn.content.filter(isRecord) : []) {
      // Anthropic: { type: 'tool_use', id, name } in the assistant's content, { type: 'tool_result', tool_use_id, content } in the user's.
      if (block.type === 'tool_use') namesById.set(block.id, block.name)
      if (block.type === 'tool_result')
        found = { name: String(namesById.get(block.tool_use_id) ?? 'tool'), result: textOf(block.content) }
    }
    // Google: { functionResponse: { name, response } } parts.
    for (const part of Array.isArray(turn.parts) ? turn.parts.filter(isRecord) : []) {
      if (isRecord(part.functionResponse))
        found = { name: String(part.functionResponse.name ?? 'tool'), result: textOf(part.functionResponse.response) }
    }
  }
  return found
}

/**
 * Whether `turn` is the user asking something (text of theirs), not a tool's result they carry
 * back (Anthropic puts tool results in a user turn).
 * @param {Record<string, unknown>} turn
 */
function asksAnew(turn) {
  if (turn.role !== 'user') return false
  if (typeof turn.content === 'string') return true
  const pieces = Array.isArray(turn.content) ? turn.content : Array.isArray(turn.parts) ? turn.parts : []
  return pieces.some(
    (piece) =>
      isRecord(piece) &&
      (piece.type === 'text' ||
        piece.type === 'input_text' ||
        (piece.type === undefined && typeof piece.text === 'string')),
  )
}

/**
 * The first tool a request offers, in any style.
 * @param {Record<string, unknown>} body
 * @returns {{ name: string, parameters: unknown } | undefined}
 */
function firstTool(body) {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : []
  for (const tool of tools) {
    if (isRecord(tool.function) && typeof tool.function.name === 'string')
      return { name: tool.function.name, parameters: tool.function.parameters }
    if (typeof tool.name === 'string') return { name: tool.name, parameters: tool.parameters ?? tool.input_schema }
    const declared = Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations.find(isRecord) : undefined
    if (declared && typeof declared.name === 'string')
      return { name: declared.name, parameters: declared.parameters ?? declared.parametersJsonSchema }
  }
  return undefined
}

/**
 * Arguments for a JSON schema, the same every time: text properties take the last word the user
 * said (an order number, a city), numbers 1, booleans true.
 * @param {unknown} schema
 * @param {string} said
 * @returns {Record<string, unknown>}
 */
function argumentsFor(schema, said) {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {}
  const word =
    said
      .trim()
      .split(/\s+/)
      .at(-1)
      ?.replace(/[^\p{L}\p{N}_-]/gu, '') || 'echo'
  /** @type {Record<string, unknown>} */
  const args = {}
  for (const [name, property] of Object.entries(properties)) {
    const type = isRecord(property) ? property.type : undefined
    args[name] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : word
  }
  return args
}

/**
 * @param {unknown} value
 * @returns {string}
 */
function textOf(value) {
  if (typeof value === 'string') return value
  if (Array.isArray(value))
    return value
      .map((/** @type {unknown} */ item) =>
        isRecord(item) && typeof item.text === 'string' ? item.text : textOf(item),
      )
      .join(' ')
  return JSON.stringify(value ?? null)
}
