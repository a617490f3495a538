// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'

import { AFTER_PAINT_LIMIT_MS, afterPaint, sessionEnvironment } from '../../src/auth/environment'

/** Frames that run only when the test paints them. */
function heldFrames(): { paintFrame: () => void } {
  let waiting: FrameRequestCallback[] = []
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => waiting.push(callback))
  return {
    paintFrame: () => {
      const now = waiting
      waiting = []
      for (const callback of now) callback(performance.now())
    },
  }
}

const handledMessages = () => new Promise((resolve) => setTimeout(resolve, 0))

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('afterPaint: the balance calls after a sign-in wait until the signed-in page is on screen', () => {
  it('runs the work only after the next frame has been painted too, never in the frame that shows the page', async () => {
    const { paintFrame } = heldFrames()
    const run = vi.fn()
    afterPaint(run)

    await handledMessages()
    expect(run).not.toHaveBeenCalled()
    paintFrame()
    await handledMessages()
    expect(run, 'the frame showing the page may not be presented yet').not.toHaveBeenCalled()
    paintFrame()
    expect(run, 'a message posted in the next frame is handled after it').not.toHaveBeenCalled()
    await handledMessages()
    expect(run).toHaveBeenCalledOnce()
  })

  it('runs the work once, after a short wait, on a page that gets no frames (a window the browser does not draw)', async () => {
    const { paintFrame } = heldFrames()
    const run = vi.fn()
    afterPaint(run)

    await new Promise((resolve) => setTimeout(resolve, AFTER_PAINT_LIMIT_MS + 20))
    expect(run).toHaveBeenCalledOnce()
    paintFrame()
    paintFrame()
    await handledMessages()
    expect(run, 'the frames that come later do not run it again').toHaveBeenCalledOnce()
  })

  it('runs the work soon in a hidden tab, where no frame comes until the user returns', async () => {
    heldFrames()
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
    const run = vi.fn()
    afterPaint(run)

    await Promise.resolve()
    expect(run).toHaveBeenCalledOnce()
  })
})

describe('sessionEnvironment: the browser the session runs in', () => {
  it('a navigator whose locks are null (happy-dom) counts as no Web Locks: a refresh runs without a cross-tab lock', () => {
    vi.stubGlobal('navigator', { locks: null })
    expect(sessionEnvironment().locks).toBeUndefined()
  })
})
