// Small helpers over node:http: reading bodies with a size limit, answering JSON, HTML and redirects.

import { FAVICON_LINK } from './favicon.mjs'

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/** A client error and the JSON body it is answered with (`{ message }` on the API, `{ error }` on the router). */
export class HttpError extends Error {
  /**
   * @param {number} status
   * @param {Record<string, unknown>} body
   */
  constructor(status, body) {
    super(
      typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : `HTTP ${status}`,
    )
    this.status = status
    this.body = body
  }
}

/** A request body over its size limit. */
export class BodyTooLargeError extends Error {
  /** @override */
  name = 'BodyTooLargeError'
}

/**
 * Reads the whole request body, refusing more than `limit` bytes.
 * @param {IncomingMessage} req
 * @param {number} [limit]
 * @returns {Promise<Buffer<ArrayBuffer>>}
 */
export async function readBody(req, limit = 1_000_000) {
  /** @type {Buffer[]} */
  const chunks = []
  let size = 0
  for await (const chunk of req) {
    const buffer = /** @type {Buffer} */ (chunk)
    size += buffer.length
    if (size > limit) throw new BodyTooLargeError(`The request body is larger than ${limit} bytes`)
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * Reads a JSON body; `undefined` when it is empty, `SyntaxError` when it is not JSON.
 * @param {IncomingMessage} req
 * @param {number} [limit]
 * @returns {Promise<unknown>}
 */
export async function readJson(req, limit) {
  const text = (await readBody(req, limit)).toString('utf8')
  return text.trim() === '' ? undefined : /** @type {unknown} */ (JSON.parse(text))
}

/**
 * Reads an HTML form post.
 * @param {IncomingMessage} req
 * @returns {Promise<URLSearchParams>}
 */
export async function readForm(req) {
  return new URLSearchParams((await readBody(req, 100_000)).toString('utf8'))
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers })
  res.end(text)
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string} html
 */
export function sendHtml(res, status, html) {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(html)
}

/**
 * A 303 to `location`, so a form post is followed by a GET.
 * @param {ServerResponse} res
 * @param {string} location
 */
export function redirect(res, location) {
  res.writeHead(303, { Location: location, 'Cache-Control': 'no-store' })
  res.end()
}

/**
 * The bearer token of `Authorization: Bearer <token>`, or undefined.
 * @param {IncomingMessage} req
 */
export function bearerToken(req) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
  return match?.[1]
}

/**
 * Escapes text for HTML element content and attribute values.
 * @param {unknown} value
 */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/**
 * A whole HTML page in the dev server's plain style.
 * @param {string} title
 * @param {string} body the page's inner HTML, already escaped
 */
export function page(title, body) {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${FAVICON_LINK}
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 30rem; margin: 4rem auto; padding: 0 1rem; color: #1d1d1f; }
  h1 { font-size: 1.4rem; }
  label { display: block; margin: 0.75rem 0 0.25rem; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: 0.5rem; font: inherit; }
  button { margin: 1rem 0.5rem 0 0; padding: 0.5rem 1.25rem; font: inherit; cursor: pointer; }
  .note { color: #555; font-size: 0.9rem; }
  .error { color: #b00020; }
  code { background: #f2f2f2; padding: 0 0.25rem; }
</style>
</head>
<body>
${body}
</body>
</html>
`
}
