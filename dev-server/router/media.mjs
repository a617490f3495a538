// Deterministic media for the router: small PNG images, a short WAV tone, and embedding vectors,
// each derived from the request's text so the same request gets the same bytes.

import { createHash } from 'node:crypto'
import { deflateSync } from 'node:zlib'

const IMAGE_SIZE = 256

/**
 * A 256x256 PNG: a colour gradient whose colours come from `seedText`.
 * @param {string} seedText
 */
export function pngFor(seedText) {
  const [r0 = 0, g0 = 0, b0 = 0, r1 = 255, g1 = 255, b1 = 255] = createHash('sha256').update(seedText).digest()
  const row = 1 + IMAGE_SIZE * 3
  const pixels = Buffer.alloc(row * IMAGE_SIZE)
  for (let y = 0; y < IMAGE_SIZE; y += 1) {
    pixels[y * row] = 0 // filter: none
    for (let x = 0; x < IMAGE_SIZE; x += 1) {
      const t = (x + y) / (2 * (IMAGE_SIZE - 1))
      const at = y * row + 1 + x * 3
      pixels[at] = Math.round(r0 + (r1 - r0) * t)
      pixels[at + 1] = Math.round(g0 + (g1 - g0) * t)
      pixels[at + 2] = Math.round(b0 + (b1 - b0) * t)
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(IMAGE_SIZE, 0)
  header.writeUInt32BE(IMAGE_SIZE, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * @param {string} type
 * @param {Buffer} data
 */
function pngChunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typed))
  return Buffer.concat([length, typed, crc])
}

/** @type {number[] | undefined} */
let crcTable
/** @param {Buffer} bytes */
function crc32(bytes) {
  crcTable ??= Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  let crc = 0xffffffff
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/**
 * Half a second of a 440 Hz tone as a valid WAV file (8 kHz, 8-bit, mono).
 * @param {number} [seconds]
 */
export function wavTone(seconds = 0.5) {
  const rate = 8000
  const samples = Math.round(rate * seconds)
  const wav = Buffer.alloc(44 + samples)
  wav.write('RIFF', 0, 'ascii')
  wav.writeUInt32LE(36 + samples, 4)
  wav.write('WAVEfmt ', 8, 'ascii')
  wav.writeUInt32LE(16, 16) // fmt chunk size
  wav.writeUInt16LE(1, 20) // PCM
  wav.writeUInt16LE(1, 22) // mono
  wav.writeUInt32LE(rate, 24)
  wav.writeUInt32LE(rate, 28) // bytes per second
  wav.writeUInt16LE(1, 32) // block align
  wav.writeUInt16LE(8, 34) // bits per sample
  wav.write('data', 36, 'ascii')
  wav.writeUInt32LE(samples, 40)
  for (let i = 0; i < samples; i += 1) wav[44 + i] = 128 + Math.round(60 * Math.sin((2 * Math.PI * 440 * i) / rate))
  return wav
}

/**
 * A unit-length vector of `dimensions` numbers, the same for the same text.
 * @param {string} text
 * @param {number} dimensions
 */
export function embeddingFor(text, dimensions) {
  let state = createHash('sha256').update(text).digest().readUInt32LE(0)
  const values = Array.from({ length: dimensions }, () => {
    // mulberry32: a small deterministic generator
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5
  })
  const norm = Math.hypot(...values) || 1
  return values.map((value) => Math.fround(value / norm))
}

/**
 * An embedding as OpenAI's `encoding_format: 'base64'` sends it: little-endian float32 bytes.
 * @param {number[]} values
 */
export function embeddingToBase64(values) {
  return Buffer.from(new Float32Array(values).buffer).toString('base64')
}
