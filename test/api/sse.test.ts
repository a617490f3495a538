import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { parseServerSentEvents, type ServerSentEvent } from '../../src/api/sse'

const encoder = new TextEncoder()

/** The chunks as a network would hand them over: one at a time, each in its own turn. */
async function* fromChunks(chunks: readonly (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield await Promise.resolve(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
}

async function parseAll(chunks: readonly (string | Uint8Array)[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = []
  for await (const event of parseServerSentEvents(fromChunks(chunks))) events.push(event)
  return events
}

const message = (data: string, event: string | null = null, id: string | null = null): ServerSentEvent => ({
  event,
  data,
  id,
})

describe('parseServerSentEvents', () => {
  it('reads events separated by blank lines, with their names', async () => {
    expect(await parseAll(['event: message_start\ndata: {"a":1}\n\ndata: {"b":2}\n\n'])).toEqual([
      message('{"a":1}', 'message_start'),
      message('{"b":2}'),
    ])
  })

  it('accepts CRLF and lone CR line endings, even with the CR and LF in different chunks', async () => {
    expect(await parseAll(['data: one\r', '\ndata: more\r\n\r', '\ndata: two\r\rdata: three\r', '\n\r\n'])).toEqual([
      message('one\nmore'),
      message('two'),
      message('three'),
    ])
  })

  it('skips comment lines and joins multi-line data with newlines', async () => {
    expect(await parseAll([': keep-alive\ndata: first\n: between\ndata: second\n\n'])).toEqual([
      message('first\nsecond'),
    ])
  })

  it('strips only one space after the colon, and takes a line without a colon as a field with no value', async () => {
    expect(await parseAll(['data:  two spaces\ndata\ndata:none\n\n'])).toEqual([message(' two spaces\n\nnone')])
  })

  it('yields the last event when the stream ends without a blank line, or even without a line end', async () => {
    expect(await parseAll(['data: a\n\ndata: b\n'])).toEqual([message('a'), message('b')])
    expect(await parseAll(['data: a\n\ndata: b'])).toEqual([message('a'), message('b')])
  })

  it('takes a data field with nothing after the colon as an empty data line', async () => {
    expect(await parseAll(['data:\ndata: x\n\ndata:\n\n'])).toEqual([message('\nx'), message('')])
  })

  it('leaves an event unnamed when its event field is empty', async () => {
    expect(await parseAll(['event: ping\nevent:\ndata: x\n\n'])).toEqual([message('x')])
  })

  it('ignores an id that holds NUL, and fields it does not know (retry)', async () => {
    expect(await parseAll(['id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\nretry: 3000\ndata: c\n\n'])).toEqual([
      message('a', null, '1'),
      message('b', null, '1'),
      message('c', null, '1'),
    ])
  })

  it('decodes a UTF-8 character split across chunks', async () => {
    const bytes = encoder.encode('data: héllo 🌍\n\n')
    const cut = bytes.indexOf(0xf0) + 2 // in the middle of the 4-byte emoji
    expect(await parseAll([bytes.slice(0, 8), bytes.slice(8, cut), bytes.slice(cut)])).toEqual([message('héllo 🌍')])
  })

  it('keeps the last event id for the events that follow, and ignores events without data', async () => {
    expect(await parseAll(['id: 7\nevent: ping\n\ndata: x\n\nid: 8\ndata: y\n\n'])).toEqual([
      message('x', null, '7'),
      message('y', null, '8'),
    ])
  })

  it('hands each event over as soon as the blank line ending it arrives, before the stream goes on', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    async function* source() {
      yield encoder.encode('data: first\n\n')
      await held
      yield encoder.encode('data: second\n\n')
    }
    const events = parseServerSentEvents(source())
    expect((await events.next()).value).toEqual(message('first'))
    release()
    expect((await events.next()).value).toEqual(message('second'))
    expect((await events.next()).done).toBe(true)
  })

  it('returns its source when the caller stops early, so the request behind it can be cancelled', async () => {
    let sourceClosed = false
    async function* source() {
      try {
        yield await Promise.resolve(encoder.encode('data: 1\n\ndata: 2\n\n'))
        yield encoder.encode('data: 3\n\n')
      } finally {
        sourceClosed = true
      }
    }
    for await (const event of parseServerSentEvents(source())) {
      expect(event.data).toBe('1')
      break
    }
    expect(sourceClosed).toBe(true)
  })
})

describe('parseServerSentEvents, whatever the chunk boundaries', () => {
  const lineText = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((text) => !/[\r\n]/.test(text))
  const eventArb = fc.record({
    name: fc.option(
      lineText.filter((name) => name !== ''),
      { nil: null },
    ),
    id: fc.option(
      lineText.filter((id) => !id.includes('\0')),
      { nil: null },
    ),
    dataLines: fc.array(lineText, { minLength: 1, maxLength: 3 }),
    comment: fc.option(lineText, { nil: null }),
  })
  const streamArb = fc.record({
    events: fc.array(eventArb, { minLength: 1, maxLength: 6 }),
    newline: fc.constantFrom('\n', '\r\n', '\r'),
    ending: fc.constantFrom('blank line', 'line end', 'nothing'),
    cuts: fc.array(fc.nat(), { maxLength: 12 }),
  })

  it('yields the same events however the bytes are cut, for LF, CRLF and CR, comments, multi-line data and an unterminated last event', async () => {
    await fc.assert(
      fc.asyncProperty(streamArb, async ({ events, newline, ending, cuts }) => {
        const blocks = events.map(({ name, id, dataLines, comment }) => [
          ...(comment === null ? [] : [`:${comment}`]),
          ...(name === null ? [] : [`event: ${name}`]),
          ...(id === null ? [] : [`id: ${id}`]),
          ...dataLines.map((line) => `data: ${line}`),
        ])
        let text = blocks.map((lines) => lines.map((line) => line + newline).join('') + newline).join('')
        if (ending === 'line end') text = text.slice(0, -newline.length)
        if (ending === 'nothing') text = text.slice(0, -2 * newline.length)
        const bytes = encoder.encode(text)
        const offsets = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
        const chunks = [0, ...offsets].map((start, index) => bytes.slice(start, [...offsets, bytes.length][index]))

        let lastId: string | null = null
        const expected = events.map(({ name, id, dataLines }) => {
          lastId = id ?? lastId
          return message(dataLines.join('\n'), name, lastId)
        })
        expect(await parseAll(chunks)).toEqual(expected)
      }),
      { numRuns: 500 },
    )
  })
})
