// The router's deterministic answers: the same request always gets the same text, split into
// tokens (a word and the space after it) so streams send it token by token and billing counts it.

/**
 * @typedef {object} TextAnswer
 * @property {string[]} tokens the answer's pieces, each one billed output token
 * @property {string} text the tokens joined
 * @property {number} inputTokens the prompt's size in tokens (about 4 characters each)
 * @property {boolean} truncated the caller's output-token limit cut the answer short
 */

/**
 * The answer to a language request in any style (OpenAI chat, responses or completions,
 * Anthropic messages, Google contents): `text` when given (a tool's result put in words), else
 * one that quotes what the user said.
 * @param {Record<string, unknown>} body
 * @param {number | undefined} maxTokens the caller's output limit, if any
 * @param {string} [text]
 * @returns {TextAnswer}
 */
export function answerFor(body, maxTokens, text = defaultText(body)) {
  const all = splitTokens(text)
  const limit = maxTokens !== undefined && Number.isInteger(maxTokens) && maxTokens > 0 ? maxTokens : Infinity
  const tokens = all.slice(0, limit)
  return {
    tokens,
    text: tokens.join(''),
    inputTokens: countTokens(collectText(body)),
    truncated: tokens.length < all.length,
  }
}

/** @param {Record<string, unknown>} body */
function defaultText(body) {
  const said = lastUserText(body).trim().split(/\s+/).filter(Boolean)
  const snippet = said.length > 8 ? `${said.slice(0, 8).join(' ')}…` : said.join(' ')
  return said.length
    ? `Hello from the Echo dev server. You said: "${snippet}". This deterministic answer streams in token by token and is billed per token.`
    : 'Hello from the Echo dev server. You said nothing, so here is a deterministic answer that streams in token by token and is billed per token.'
}

/**
 * A word with the whitespace after it, so the pieces join back into the text exactly.
 * @param {string} text
 */
export function splitTokens(text) {
  return text.match(/\S+\s*/g) ?? []
}

/**
 * About one token per 4 characters, at least 1.
 * @param {string} text
 */
export function countTokens(text) {
  return Math.max(1, Math.ceil(text.length / 4))
}

/**
 * The text of the last user turn: OpenAI `messages` / `input` / `prompt`, Anthropic `messages`,
 * Google `contents`.
 * @param {Record<string, unknown>} body
 */
export function lastUserText(body) {
  const turns = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.contents)
      ? body.contents
      : Array.isArray(body.input)
        ? body.input
        : undefined
  if (turns) {
    const users = turns.filter((turn) => isRecord(turn) && (turn.role === undefined || turn.role === 'user'))
    return collectText(users.at(-1))
  }
  if (typeof body.input === 'string') return body.input
  if (typeof body.prompt === 'string') return body.prompt
  if (Array.isArray(body.prompt)) return collectText(body.prompt.at(-1))
  return ''
}

/**
 * Every piece of text in a message-like value: strings, and `text` / `content` / `parts` inside.
 * @param {unknown} value
 * @returns {string}
 */
export function collectText(value) {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(collectText).filter(Boolean).join(' ')
  if (!isRecord(value)) return ''
  const parts = [
    'system',
    'instructions',
    'systemInstruction',
    'messages',
    'contents',
    'input',
    'prompt',
    'content',
    'parts',
    'text',
  ]
    .filter((key) => key in value)
    .map((key) => collectText(value[key]))
  return parts.filter(Boolean).join(' ')
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
