// The model router (its own port): OpenAI-, Anthropic- and Google-style endpoints at the root,
// deterministic answers, streams token by token, billing per token against the ledger: the calling
// app's free tier first, then the paid balance (Ledger.charge).
// As Echo's router: no token -> 402 with an x402 payment challenge (JSON); a bad or expired token
// -> 401 and no credit left -> 402, both as Express's default error page; an unknown model -> 422
// `{ error }`; streams carry no Content-Type.

import { STATUS_CODES } from 'node:http'

import { BodyTooLargeError, HttpError, readBody, sendJson } from '../http/http.mjs'
import { allowAnyOrigin, answerPreflight } from '../http/cors.mjs'
import { answerFor, countTokens, isRecord, splitTokens } from './answerText.mjs'
import { chatCompletions, chatCompletionsToolCall, completions, responses, responsesToolCall } from './openaiShapes.mjs'
import { messages, messagesToolCall } from './anthropicShapes.mjs'
import { generateContent, generateContentToolCall } from './googleShapes.mjs'
import { toolCallFor, toolResultOf } from './toolCalls.mjs'
import {
  planGoogleEmbedding,
  planGoogleEmbeddings,
  planGooglePredict,
  planOpenAiEmbeddings,
  planOpenAiImages,
  planSpeech,
  planTranscription,
  routerError,
} from './mediaAnswers.mjs'
import { findModel } from './models.mjs'
import { writeFrames } from './sse.mjs'
import { TEST_USER } from '../fixtures.mjs'
import { answerFavicon } from '../http/favicon.mjs'

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {import('./models.mjs').Model} Model */
/** @typedef {import('./models.mjs').ModelKind} ModelKind */
/** @typedef {import('../oauth/accessTokens.mjs').AccessTokenInfo} AccessTokenInfo */

/**
 * A language endpoint: its answer shapes, id prefix and where the caller's output limit is.
 * @typedef {object} TextEndpoint
 * @property {'text'} kind
 * @property {{ complete: (ctx: import('./openaiShapes.mjs').TextContext) => unknown, stream: (ctx: import('./openaiShapes.mjs').TextContext) => import('./openaiShapes.mjs').Frame[] }} shape
 * @property {{ complete: (ctx: import('./openaiShapes.mjs').TextContext, call: import('./toolCalls.mjs').ToolCall) => unknown, stream: (ctx: import('./openaiShapes.mjs').TextContext, call: import('./toolCalls.mjs').ToolCall) => import('./openaiShapes.mjs').Frame[] }} [toolCall] how it answers with a call of the request's first tool
 * @property {string} idPrefix
 * @property {(body: Record<string, unknown>) => unknown} maxTokens
 * @property {boolean} [alwaysStreams]
 */

/**
 * Any other endpoint: how many tokens it bills and how it answers, once the charge went through.
 * @typedef {object} MediaEndpoint
 * @property {Exclude<ModelKind, 'text'>} kind
 * @property {boolean} [multipart]
 * @property {(request: { body: Record<string, unknown>, model: Model, modelName: string }) => { inputTokens: number, outputTokens: number, send: (res: ServerResponse) => void }} plan
 */

/** USDC on Base, the asset of Echo's x402 challenge. */
const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

/** @type {Record<string, TextEndpoint | MediaEndpoint>} */
const OPENAI_AND_ANTHROPIC = {
  '/chat/completions': {
    kind: 'text',
    shape: chatCompletions,
    toolCall: chatCompletionsToolCall,
    idPrefix: 'chatcmpl-dev-',
    maxTokens: (body) => body.max_completion_tokens ?? body.max_tokens,
  },
  '/responses': {
    kind: 'text',
    shape: responses,
    toolCall: responsesToolCall,
    idPrefix: 'resp_dev',
    maxTokens: (body) => body.max_output_tokens,
  },
  '/completions': { kind: 'text', shape: completions, idPrefix: 'cmpl-dev-', maxTokens: (body) => body.max_tokens },
  '/messages': {
    kind: 'text',
    shape: messages,
    toolCall: messagesToolCall,
    idPrefix: 'msg_dev_',
    maxTokens: (body) => body.max_tokens,
  },
  '/embeddings': { kind: 'embedding', plan: planOpenAiEmbeddings },
  '/images/generations': { kind: 'image', plan: planOpenAiImages },
  '/audio/transcriptions': { kind: 'transcription', multipart: true, plan: planTranscription },
  '/audio/speech': { kind: 'speech', plan: planSpeech },
}

/** @type {Record<string, TextEndpoint | MediaEndpoint>} */
const GOOGLE = {
  generateContent: {
    kind: 'text',
    shape: generateContent,
    toolCall: generateContentToolCall,
    idPrefix: 'dev-',
    maxTokens: googleMaxTokens,
  },
  streamGenerateContent: {
    kind: 'text',
    shape: generateContent,
    toolCall: generateContentToolCall,
    idPrefix: 'dev-',
    maxTokens: googleMaxTokens,
    alwaysStreams: true,
  },
  predict: { kind: 'image', plan: planGooglePredict },
  embedContent: { kind: 'embedding', plan: planGoogleEmbedding },
  batchEmbedContents: { kind: 'embedding', plan: planGoogleEmbeddings },
}

/**
 * @param {{
 *   ledger: import('../ledger/ledger.mjs').Ledger,
 *   findAccessToken: (token: string | undefined) => Promise<AccessTokenInfo | undefined>,
 *   streamDelayMs: number,
 *   routerUrl: string,
 * }} options routerUrl: the router's origin, for the URL a payment challenge names
 * @returns {(req: IncomingMessage, res: ServerResponse) => Promise<void>}
 */
export function createRouterHandler({ ledger, findAccessToken, streamDelayMs, routerUrl }) {
  let answered = 0

  return async function handleRouter(req, res) {
    if (answerPreflight(req, res)) return
    allowAnyOrigin(req, res)
    const url = new URL(req.url ?? '/', 'http://router.invalid')
    if (answerFavicon(req, res, url.pathname)) return
    const route = findEndpoint(url.pathname)
    if (!route) return sendJson(res, 404, { error: `No route for ${url.pathname}` })
    if (req.method !== 'POST') return sendJson(res, 405, { error: `${url.pathname} answers POST` })

    const token = tokenOf(req, url)
    if (!token) return paymentChallenge(res, `${routerUrl}${req.url ?? url.pathname}`)
    const access = await findAccessToken(token)
    if (!access || access.accountId !== TEST_USER.id) return expressErrorPage(res, 401)

    try {
      const body = await readRequest(req, route.endpoint)
      const modelName = route.model ?? (typeof body.model === 'string' ? body.model : undefined)
      const model = findModel(modelName)
      if (!model) throw routerError(422, `Invalid model: ${String(modelName)} Echo does not yet support this model.`)
      if (model.kind !== route.endpoint.kind) throw routerError(422, `Model ${model.id} cannot answer ${url.pathname}`)
      answered += 1

      const { endpoint } = route
      if (endpoint.kind === 'text') {
        const textEndpoint = /** @type {TextEndpoint} */ (endpoint)
        // A request offering tools is answered with a call of the first; once it carries the result, with words using it.
        const call = textEndpoint.toolCall && toolCallFor(body, `call_dev_${answered}`)
        const result = toolResultOf(body)
        const answer = call
          ? {
              tokens: splitTokens(JSON.stringify(call.args)),
              text: JSON.stringify(call.args),
              inputTokens: countTokens(JSON.stringify(body)),
              truncated: false,
            }
          : answerFor(
              body,
              numberOrUndefined(textEndpoint.maxTokens(body)),
              result &&
                `The tool ${result.name} answered: ${result.result}. That is from your server, put in words by the Echo dev server.`,
            )
        const cost = answer.inputTokens * model.inputMicros + answer.tokens.length * model.outputMicros
        // The token's client is the app the call is for (an Echo app is an OAuth client): its free tier is drawn first.
        const draw = ledger.charge(access.clientId, cost)
        if (!draw) return expressErrorPage(res, 402)
        const ctx = {
          id: `${textEndpoint.idPrefix}${answered}`,
          created: Math.floor(Date.now() / 1000),
          model: modelName ?? model.id,
          answer,
          body,
        }
        const shape =
          call && textEndpoint.toolCall
            ? {
                complete: (/** @type {typeof ctx} */ c) => textEndpoint.toolCall?.complete(c, call),
                stream: (/** @type {typeof ctx} */ c) => textEndpoint.toolCall?.stream(c, call) ?? [],
              }
            : textEndpoint.shape
        if (textEndpoint.alwaysStreams || body.stream === true) {
          const { tokensSent } = await writeFrames(res, shape.stream(ctx), { delayMs: streamDelayMs })
          // Tokens the client never received (it went away) are not billed.
          ledger.refund(draw, (answer.tokens.length - tokensSent) * model.outputMicros)
        } else {
          sendJson(res, 200, shape.complete(ctx))
        }
        return
      }

      const plan = /** @type {MediaEndpoint} */ (endpoint).plan({ body, model, modelName: modelName ?? model.id })
      const cost = plan.inputTokens * model.inputMicros + plan.outputTokens * model.outputMicros
      if (!ledger.charge(access.clientId, cost)) return expressErrorPage(res, 402)
      plan.send(res)
    } catch (error) {
      if (error instanceof HttpError) return sendJson(res, error.status, error.body)
      if (error instanceof SyntaxError)
        return sendJson(res, 400, { error: `The request body is not valid JSON: ${error.message}` })
      if (error instanceof BodyTooLargeError) return sendJson(res, 413, { error: error.message })
      throw error
    }
  }
}

/**
 * @param {string} fullPath
 * @returns {{ endpoint: TextEndpoint | MediaEndpoint, model?: string } | undefined}
 */
function findEndpoint(fullPath) {
  // Echo's paths are at the root; the official SDKs' own prefixes (Anthropic's /v1, Google's
  // /v1beta) are accepted too, so an SDK pointed at the router works without path rewriting.
  const path = fullPath.replace(/^\/v1(?:beta)?(?=\/)/, '')
  const direct = OPENAI_AND_ANTHROPIC[path]
  if (direct) return { endpoint: direct }
  const google = /^\/models\/([^/:]+):(\w+)$/.exec(path)
  const endpoint = google ? GOOGLE[google[2] ?? ''] : undefined
  return endpoint && google ? { endpoint, model: decodeURIComponent(google[1] ?? '') } : undefined
}

/**
 * The access token, wherever an official SDK puts it: `Authorization: Bearer` (OpenAI),
 * `x-api-key` (Anthropic), `x-goog-api-key` or `?key=` (Google).
 * @param {IncomingMessage} req
 * @param {URL} url
 */
function tokenOf(req, url) {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1]
  const header = (/** @type {string} */ name) => {
    const value = req.headers[name]
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
  }
  return bearer ?? header('x-api-key') ?? header('x-goog-api-key') ?? (url.searchParams.get('key') || undefined)
}

/**
 * A refused token (401) or no credit left (402), as Echo's router (an Express app) answers them: by
 * passing the error on to Express's final handler, whose page names the status and nothing more.
 * @param {ServerResponse} res
 * @param {401 | 402} status
 */
function expressErrorPage(res, status) {
  const body = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Error</title>
</head>
<body>
<pre>${STATUS_CODES[status]}</pre>
</body>
</html>
`
  res.writeHead(status, {
    'Content-Security-Policy': "default-src 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
  })
  res.end(body)
}

/**
 * A call without a token: Echo's router offers to be paid per call instead (x402), in USDC on Base.
 * @param {ServerResponse} res
 * @param {string} resource the URL called
 */
function paymentChallenge(res, resource) {
  const accepts = {
    scheme: 'exact',
    network: 'base',
    // USDC's smallest units (6 decimals): $0.01, a placeholder; the dev server sells nothing for it.
    maxAmountRequired: '10000',
    resource,
    description: 'A call of an AI model through the Echo router',
    mimeType: 'application/json',
    payTo: '0x0000000000000000000000000000000000000000',
    maxTimeoutSeconds: 60,
    asset: USDC_ON_BASE,
  }
  const body = JSON.stringify({ x402Version: 1, error: 'X-PAYMENT header is required', accepts: [accepts] })
  res.writeHead(402, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'X-402 realm="echo"' })
  res.end(body)
}

/**
 * The JSON body, or for multipart endpoints the form's fields (files as Blobs).
 * @param {IncomingMessage} req
 * @param {TextEndpoint | MediaEndpoint} endpoint
 * @returns {Promise<Record<string, unknown>>}
 */
async function readRequest(req, endpoint) {
  if ('multipart' in endpoint && endpoint.multipart) {
    const type = req.headers['content-type'] ?? ''
    if (!type.startsWith('multipart/form-data')) throw routerError(400, 'Send this endpoint multipart/form-data')
    const raw = await readBody(req, 25_000_000)
    const form = await new Response(raw, { headers: { 'Content-Type': type } }).formData().catch(() => {
      throw routerError(400, 'The multipart body could not be read')
    })
    return Object.fromEntries(form.entries())
  }
  const text = (await readBody(req, 20_000_000)).toString('utf8')
  const body = /** @type {unknown} */ (text.trim() === '' ? {} : JSON.parse(text))
  if (!isRecord(body)) throw routerError(400, 'The request body must be a JSON object')
  return body
}

/** @param {Record<string, unknown>} body */
function googleMaxTokens(body) {
  return isRecord(body.generationConfig) ? body.generationConfig.maxOutputTokens : undefined
}

/** @param {unknown} value */
function numberOrUndefined(value) {
  return typeof value === 'number' ? value : undefined
}
