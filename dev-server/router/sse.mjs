// Writes a stream of server-sent events one frame at a time with a pause between frames, the way
// Echo's router streams: status 200 and no Content-Type. Stops when the client goes away.

import { setTimeout as sleep } from 'node:timers/promises'

/** @typedef {import('./openaiShapes.mjs').Frame} Frame */
/** @typedef {import('./openaiShapes.mjs').SseEvent} SseEvent */

/**
 * @param {SseEvent} event
 */
export function formatEvent({ event, data }) {
  const text = typeof data === 'string' ? data : JSON.stringify(data)
  return `${event ? `event: ${event}\n` : ''}data: ${text}\n\n`
}

/**
 * Streams `frames`, pausing `delayMs` before each frame after the first.
 * @param {import('node:http').ServerResponse} res
 * @param {Frame[]} frames
 * @param {{ delayMs: number, headers?: Record<string, string> }} options
 * @returns {Promise<{ tokensSent: number, completed: boolean }>} how many output tokens reached the socket
 */
export async function writeFrames(res, frames, { delayMs, headers = {} }) {
  const gone = new AbortController()
  const onClose = () => gone.abort()
  res.on('close', onClose)
  res.writeHead(200, { 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no', ...headers })
  res.flushHeaders()
  let tokensSent = 0
  try {
    for (const [index, frame] of frames.entries()) {
      if (index > 0 && delayMs > 0) await sleep(delayMs, undefined, { signal: gone.signal })
      if (gone.signal.aborted) return { tokensSent, completed: false }
      res.write(frame.events.map(formatEvent).join(''))
      tokensSent += frame.tokens
    }
    res.end()
    return { tokensSent, completed: true }
  } catch (error) {
    if (gone.signal.aborted) return { tokensSent, completed: false }
    throw error
  } finally {
    res.off('close', onClose)
  }
}
