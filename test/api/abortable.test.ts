import { afterEach, describe, expect, it, vi } from 'vitest'

import { abortable } from '../../src/api/abortable'

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0))

afterEach(() => {
  vi.restoreAllMocks()
})

describe('abortable: a caller stops waiting on abort, the work goes on', () => {
  it('work that fails after its caller had already aborted raises no unhandled rejection (a stream read cut by the abort)', async () => {
    const controller = new AbortController()
    controller.abort()
    let cut: (error: Error) => void = () => undefined
    const read = new Promise<never>((_, reject) => (cut = reject))
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      await expect(abortable(read, controller.signal)).rejects.toThrow('This operation was aborted')
      cut(new DOMException('This operation was aborted', 'AbortError'))
      await nextTurn()
      expect(unhandled).not.toHaveBeenCalled()
    } finally {
      process.off('unhandledRejection', unhandled)
    }
  })

  it('work that fails after an abort mid-wait raises no unhandled rejection either', async () => {
    const controller = new AbortController()
    let cut: (error: Error) => void = () => undefined
    const read = new Promise<never>((_, reject) => (cut = reject))
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      const waiting = abortable(read, controller.signal)
      controller.abort()
      await expect(waiting).rejects.toThrow('This operation was aborted')
      cut(new Error('body cut'))
      await nextTurn()
      expect(unhandled).not.toHaveBeenCalled()
    } finally {
      process.off('unhandledRejection', unhandled)
    }
  })
})
