// What a model call can cost at most before it is sent, and the request that keeps it under a ceiling: pure
// functions over the request's path and JSON body and the model's price (docs/api.md, "The price ceiling").

/** A model's price as Echo bills it: US dollars per input token and per output token. */
export interface ModelPrice {
  readonly input: number
  readonly output: number
}

/** What a billed call can cost at most, in US dollars, as it would be sent. */
export interface CallCost {
  /** The model the call names. */
  model: string
  /** The most the call can cost: `input` plus `output`. */
  atMost: number
  /** The most its input can cost (see {@link inputTokensAtMost}). */
  input: number
  /** The most its answer can cost: its output limit at the model's output price (every choice of it). */
  output: number
  /** The output limit the call is sent with, per choice. */
  outputTokens: number
}

/** A model call priced against a ceiling: sent as `body` (its output limit lowered where it had to be), or refused. */
export type CeilingDecision =
  | {
      readonly kind: 'send'
      readonly body: Record<string, unknown>
      readonly cost: CallCost
      readonly lowered: boolean
    }
  | { readonly kind: 'refuse'; readonly cost: Pick<CallCost, 'model' | 'atMost' | 'input'> }

/** Where a model call goes, what names its output limit, and how many answers it asks for. */
export interface ModelEndpoint {
  readonly name: 'chat' | 'completions' | 'responses' | 'messages' | 'google' | 'embeddings'
  /** The body's output-limit fields, the one to add first (a path into the body). */
  readonly limitFields: readonly (readonly string[])[]
  /** The body's field that asks for more than one answer (each its own output), if any. */
  readonly choicesField?: readonly string[]
}

const ENDPOINTS: readonly [RegExp, ModelEndpoint][] = [
  [
    /\/chat\/completions$/,
    { name: 'chat', limitFields: [['max_completion_tokens'], ['max_tokens']], choicesField: ['n'] },
  ],
  [/\/responses$/, { name: 'responses', limitFields: [['max_output_tokens']] }],
  [/\/completions$/, { name: 'completions', limitFields: [['max_tokens']], choicesField: ['n'] }],
  [/\/messages$/, { name: 'messages', limitFields: [['max_tokens']] }],
  [
    /\/models\/[^/:]+:(stream)?[gG]enerateContent$/,
    {
      name: 'google',
      limitFields: [['generationConfig', 'maxOutputTokens']],
      choicesField: ['generationConfig', 'candidateCount'],
    },
  ],
  [/\/embeddings$/, { name: 'embeddings', limitFields: [] }],
]

/** The model endpoint a router path is (`/v1/chat/completions`), or `null` for one echo-rtk does not price. */
export function modelEndpointOf(path: string): ModelEndpoint | null {
  return ENDPOINTS.find(([pattern]) => pattern.test(path))?.[1] ?? null
}

/** The model a call names: the body's `model`, or Google's path (`/models/gemini-2.5-flash:generateContent`). */
export function modelOf(endpoint: ModelEndpoint, path: string, body: Record<string, unknown>): string | null {
  if (endpoint.name === 'google') return /\/models\/([^/:]+):/.exec(path)?.[1] ?? null
  return typeof body.model === 'string' ? body.model : null
}

/**
 * The most input tokens `bodyText` can be billed for: its UTF-8 bytes. Every tokenizer Echo's models use
 * (byte-pair encodings over UTF-8) makes a token of one byte at least, so a text of `n` bytes is at most `n`
 * tokens; the count takes the whole JSON body, keys and quotes included, so it errs high, never low (an
 * image sent as base64 counts its bytes, far above what the model bills for it).
 */
export function inputTokensAtMost(bodyText: string): number {
  return new TextEncoder().encode(bodyText).length
}

const at = (body: Record<string, unknown>, path: readonly string[]): unknown =>
  path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], body)

function withValue(body: Record<string, unknown>, path: readonly string[], value: number): Record<string, unknown> {
  const [key, ...rest] = path as [string, ...string[]]
  if (rest.length === 0) return { ...body, [key]: value }
  const inner = body[key]
  return { ...body, [key]: withValue(typeof inner === 'object' && inner !== null ? (inner as never) : {}, rest, value) }
}

/** How many answers the call asks for (`n`, `candidateCount`), each billed for its own output. */
function choicesOf(endpoint: ModelEndpoint, body: Record<string, unknown>): number {
  const asked = endpoint.choicesField === undefined ? undefined : at(body, endpoint.choicesField)
  return typeof asked === 'number' && Number.isInteger(asked) && asked > 1 ? asked : 1
}

/** The output limit the call sends (the highest of its limit fields), or `null` when it sends none. */
export function outputLimitOf(endpoint: ModelEndpoint, body: Record<string, unknown>): number | null {
  const limits = endpoint.limitFields.map((field) => at(body, field)).filter((v): v is number => typeof v === 'number')
  return limits.length === 0 ? null : Math.max(...limits)
}

/**
 * Prices a call against `ceiling` (US dollars): refused when its input alone can pass the ceiling (no output
 * would fit); else sent with every output limit it carries lowered to what fits (never raised), or, when it
 * carries none, with the endpoint's own added, since a provider's default can be far above what the ceiling
 * allows. The answer then cannot cost more than the ceiling.
 */
export function fitUnderCeiling(
  {
    endpoint,
    model,
    body,
    bodyText,
  }: { endpoint: ModelEndpoint; model: string; body: Record<string, unknown>; bodyText: string },
  price: ModelPrice,
  ceiling: number,
): CeilingDecision {
  const input = inputTokensAtMost(bodyText) * price.input
  if (input > ceiling) return { kind: 'refuse', cost: { model, atMost: input, input } }
  const choices = choicesOf(endpoint, body)
  const sent = outputLimitOf(endpoint, body)
  // An answer priced at nothing (an embedding's vectors) costs its input alone.
  if (endpoint.limitFields.length === 0 || price.output === 0)
    return {
      kind: 'send',
      body,
      lowered: false,
      cost: { model, atMost: input, input, output: 0, outputTokens: sent ?? 0 },
    }
  // The bound is on the body as it is sent: the limit written into it adds bytes of input, so it is fitted again
  // until the sum holds (as it will be compared, floating point and all).
  let fits = Math.floor((ceiling - input) / (price.output * choices))
  for (;;) {
    if (fits < 1) return { kind: 'refuse', cost: { model, atMost: input + price.output * choices, input } }
    const outputTokens = sent === null ? fits : Math.min(sent, fits)
    if (sent !== null && sent <= fits) {
      const output = sent * choices * price.output
      return {
        kind: 'send',
        body,
        lowered: false,
        cost: { model, atMost: input + output, input, output, outputTokens },
      }
    }
    const fitted = withLimit(endpoint, body, sent, outputTokens)
    const fittedInput = inputTokensAtMost(JSON.stringify(fitted)) * price.input
    const output = outputTokens * choices * price.output
    if (fittedInput + output <= ceiling) {
      const cost = { model, atMost: fittedInput + output, input: fittedInput, output, outputTokens }
      return { kind: 'send', body: fitted, lowered: true, cost }
    }
    fits = Math.min(fits - 1, Math.floor((ceiling - fittedInput) / (price.output * choices)))
  }
}

/** `body` with `limit` for every output limit above it, or, when it sends none, with the endpoint's own added. */
function withLimit(
  endpoint: ModelEndpoint,
  body: Record<string, unknown>,
  sent: number | null,
  limit: number,
): Record<string, unknown> {
  if (sent === null) return withValue(body, endpoint.limitFields[0]!, limit)
  let fitted = body
  for (const field of endpoint.limitFields) {
    const value = at(body, field)
    if (typeof value === 'number' && value > limit) fitted = withValue(fitted, field, limit)
  }
  return fitted
}
