// The dev server's icon. Every HTML page links it and both ports serve it, at /favicon.svg and at
// the /favicon.ico a browser asks for by itself, so no page leaves a 404 in the browser's console.

/** Where the icon is served, on the API port and on the router port. */
export const FAVICON_PATH = '/favicon.svg'

/** The `<link>` in the head of every HTML page of the dev server. */
export const FAVICON_LINK = `<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`

/** An "E" drawn with rectangles, so it looks the same whatever fonts the browser has. */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d1d1f"/><path fill="#fff" d="M9 7h14v4H13v3h8v4h-8v3h10v4H9z"/></svg>`

/**
 * Answers a GET or HEAD of the icon; false for any other request.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} path
 */
export function answerFavicon(req, res, path) {
  if ((path !== FAVICON_PATH && path !== '/favicon.ico') || (req.method !== 'GET' && req.method !== 'HEAD'))
    return false
  // The same SVG at /favicon.ico: browsers go by the Content-Type, not by the name.
  res.writeHead(200, {
    'Content-Type': 'image/svg+xml',
    'Content-Length': String(Buffer.byteLength(SVG)),
    'Cache-Control': 'public, max-age=86400',
  })
  res.end(req.method === 'HEAD' ? undefined : SVG)
  return true
}
