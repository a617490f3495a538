import { describe, expect, it, vi } from 'vitest'

import { whenBodyEnds } from '../../src/api/whenBodyEnds'

const answer = () =>
  new Response(new Blob(['chunk one ', 'chunk two']).stream(), { status: 200, headers: { 'x-kept': 'yes' } })

describe('whenBodyEnds', () => {
  it('reports once when the body is read to the end, passing the body and headers through', async () => {
    const ended = vi.fn()
    const watched = whenBodyEnds(answer(), undefined, ended)
    expect(ended).not.toHaveBeenCalled()
    expect(watched.headers.get('x-kept')).toBe('yes')
    expect(await watched.text()).toBe('chunk one chunk two')
    expect(ended).toHaveBeenCalledTimes(1)
  })

  it('reports when the reader stops early (a break out of a stream)', async () => {
    const ended = vi.fn()
    const reader = whenBodyEnds(answer(), undefined, ended).body!.getReader()
    await reader.read()
    await reader.cancel()
    expect(ended).toHaveBeenCalledTimes(1)
  })

  it('reports when the call is aborted, and only once', async () => {
    const ended = vi.fn()
    const controller = new AbortController()
    const watched = whenBodyEnds(answer(), controller.signal, ended)
    controller.abort()
    await watched.body!.cancel()
    expect(ended).toHaveBeenCalledTimes(1)
  })

  it('reports at once for an answer without a body', () => {
    const ended = vi.fn()
    whenBodyEnds(new Response(null, { status: 204 }), undefined, ended)
    expect(ended).toHaveBeenCalledTimes(1)
  })
})
