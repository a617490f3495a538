/** One server-sent event: its `event:` name (if any), its `data:` lines joined by `\n`, its `id:`. */
export interface ServerSentEvent {
  event: string | null
  data: string
  id: string | null
}

/**
 * Parses a server-sent event stream (WHATWG `text/event-stream`) from raw bytes: UTF-8 decoding that
 * survives a character split across chunks, lines ended by CRLF, LF or CR, `:` comments skipped,
 * multi-line `data:` joined. Each event is yielded as soon as the blank line that ends it arrives;
 * a last event that the stream closes without a blank line is yielded too. Returning early (a
 * `break` in the caller's loop) returns `chunks` as well, so its source can cancel the request.
 * @internal
 *
 * @example
 * for await (const { event, data } of parseServerSentEvents(readChunks(response.body))) console.log(event, data)
 */
export async function* parseServerSentEvents(
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const decoder = new TextDecoder()
  const lines = new LineSplitter()
  const events = new EventBuilder()
  for await (const chunk of chunks) {
    for (const line of lines.push(decoder.decode(chunk, { stream: true }))) {
      const event = events.take(line)
      if (event !== undefined) yield event
    }
  }
  for (const line of lines.end(decoder.decode())) {
    const event = events.take(line)
    if (event !== undefined) yield event
  }
  const last = events.end()
  if (last !== undefined) yield last
}

/** Cuts text into lines at CRLF, LF or CR, keeping a line that has no end yet for the next push. */
class LineSplitter {
  #pending = ''
  /** A CR ended the last push: an LF opening the next one belongs to it, not a new line. */
  #afterCR = false

  push(text: string): string[] {
    let rest = text
    if (this.#afterCR && rest.startsWith('\n')) rest = rest.slice(1)
    this.#afterCR = false
    const lines: string[] = []
    let start = 0
    for (let index = 0; index < rest.length; index += 1) {
      const char = rest[index]
      if (char !== '\n' && char !== '\r') continue
      lines.push(this.#pending + rest.slice(start, index))
      this.#pending = ''
      if (char === '\r') {
        if (index + 1 === rest.length) this.#afterCR = true
        else if (rest[index + 1] === '\n') index += 1
      }
      start = index + 1
    }
    this.#pending += rest.slice(start)
    return lines
  }

  end(text: string): string[] {
    const lines = this.push(text)
    if (this.#pending !== '') lines.push(this.#pending)
    this.#pending = ''
    return lines
  }
}

/** Gathers field lines into events; a blank line dispatches the event gathered so far. */
class EventBuilder {
  #event: string | null = null
  #data: string[] = []
  #lastId: string | null = null

  /** Takes one line; returns the event it completes, if it completes one. */
  take(line: string): ServerSentEvent | undefined {
    if (line === '') return this.#dispatch()
    if (line.startsWith(':')) return undefined
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') this.#data.push(value)
    else if (field === 'event') this.#event = value === '' ? null : value
    else if (field === 'id' && !value.includes('\0')) this.#lastId = value
    return undefined
  }

  /** The event the stream closed on without a blank line, if it has data. */
  end(): ServerSentEvent | undefined {
    return this.#dispatch()
  }

  #dispatch(): ServerSentEvent | undefined {
    const { length } = this.#data
    const event = length === 0 ? undefined : { event: this.#event, data: this.#data.join('\n'), id: this.#lastId }
    this.#event = null
    this.#data = []
    return event
  }
}
