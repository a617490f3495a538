import { act, renderHook, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'

import { EchoProvider, EchoTopUp, isInsufficientFunds, useEcho, useEchoRouter } from 'echo-rtk'

import type { EchoEnvironment } from '../../src/auth/environment'
import { BALANCE_REFETCH_DELAY_MS } from '../../src/store/money/billedCalls'

import { CONFIG, echoStoresPerTest } from '../support/echoStores'
import { renderWithEcho } from '../support/renderWithEcho'
import { server } from '../support/server'
import { sentTo, serveEcho } from '../support/testEcho'

const ROUTER = 'https://router.echo.test'
const config = { ...CONFIG, baseRouterUrl: ROUTER }
const { signInThroughEcho } = echoStoresPerTest()

/** A router stub: chat answers (streamed on request) and the bearer token of each call. */
function routerStub({ status = 200 }: { status?: number } = {}) {
  const tokens: (string | null)[] = []
  server.use(
    http.post(`${ROUTER}/chat/completions`, async ({ request }) => {
      tokens.push(request.headers.get('authorization'))
      if (status === 402) return new HttpResponse('<html><body>Payment Required</body></html>', { status: 402 })
      const { stream } = (await request.json()) as { stream?: boolean }
      if (!stream)
        return HttpResponse.json({
          id: 'c1',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' }, finish_reason: 'stop' }],
        })
      const chunk = (content: string) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
      return new HttpResponse(chunk('H') + chunk('i') + 'data: [DONE]\n\n')
    }),
  )
  return tokens
}

async function signedIn(environment: Partial<EchoEnvironment> = {}) {
  const echo = serveEcho()
  const store = await signInThroughEcho(environment, config)
  const wrapper = ({ children }: { children: ReactNode }) => (
    <EchoProvider config={config} store={store}>
      {children}
    </EchoProvider>
  )
  return { echo, store, wrapper }
}

/** Timers the test runs by hand: what is scheduled waits until `run(ms)` runs those of that delay. */
function handRunTimers() {
  const scheduled = new Map<number, { run: () => void; ms: number }>()
  let next = 0
  return {
    setTimeout: (run: () => void, ms: number) => {
      scheduled.set(++next, { run, ms })
      return next
    },
    clearTimeout: (handle: unknown) => {
      scheduled.delete(handle as number)
    },
    pending: (ms: number) => [...scheduled.values()].filter((timer) => timer.ms === ms).length,
    run: (ms: number) => {
      for (const [handle, timer] of [...scheduled]) {
        if (timer.ms !== ms) continue
        scheduled.delete(handle)
        timer.run()
      }
    },
  }
}

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hello' }] }

describe('useEchoRouter', () => {
  it("calls models with the signed-in user's token", async () => {
    const tokens = routerStub()
    const { wrapper } = await signedIn()
    const { result } = renderHook(() => useEchoRouter(), { wrapper })
    const answer = await result.current.chat.completions.create(chat)
    expect(answer.choices[0]?.message.content).toBe('Hi!')
    expect(tokens).toEqual(['Bearer test-access-1'])
  })

  it('refetches the balance once after a burst of calls has ended, streamed ones included', async () => {
    routerStub()
    const timers = handRunTimers()
    const { echo, wrapper } = await signedIn(timers)
    const { result } = renderHook(() => useEchoRouter(), { wrapper })
    const before = sentTo(echo, '/api/v1/balance').length
    const stream = await result.current.chat.completions.create({ ...chat, stream: true })
    const pieces: string[] = []
    for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta.content ?? '')
    await Promise.all([result.current.chat.completions.create(chat), result.current.chat.completions.create(chat)])
    expect(pieces.join('')).toBe('Hi')
    expect(sentTo(echo, '/api/v1/balance').length).toBe(before)
    // Three calls ended: one refetch is waiting, the others were folded into it (setting it back once).
    expect(timers.pending(BALANCE_REFETCH_DELAY_MS)).toBe(1)
    timers.run(BALANCE_REFETCH_DELAY_MS)
    timers.run(BALANCE_REFETCH_DELAY_MS)
    await waitFor(() => expect(sentTo(echo, '/api/v1/balance').length).toBe(before + 1))
    expect(timers.pending(BALANCE_REFETCH_DELAY_MS)).toBe(0)
  })

  it('a call that ends while the refetch waits sets it back: the refetch comes once no call has ended for the whole wait', async () => {
    routerStub()
    const timers = handRunTimers()
    const { echo, wrapper } = await signedIn(timers)
    const { result } = renderHook(() => useEchoRouter(), { wrapper })
    const before = sentTo(echo, '/api/v1/balance').length
    await result.current.chat.completions.create(chat)
    await result.current.chat.completions.create(chat)
    timers.run(BALANCE_REFETCH_DELAY_MS)
    // The second call ended during the wait: one more wait, and still one timer.
    expect(timers.pending(BALANCE_REFETCH_DELAY_MS)).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(sentTo(echo, '/api/v1/balance').length).toBe(before)
    timers.run(BALANCE_REFETCH_DELAY_MS)
    await waitFor(() => expect(sentTo(echo, '/api/v1/balance').length).toBe(before + 1))
    expect(timers.pending(BALANCE_REFETCH_DELAY_MS)).toBe(0)
  })

  it('a 402 marks the user out of credits, and EchoTopUp offers a top-up', async () => {
    routerStub({ status: 402 })
    const { store } = await signedIn()
    renderWithEcho(<EchoTopUp onlyWhenOutOfCredits />, { store, config })
    const { result } = renderHook(() => ({ router: useEchoRouter(), echo: useEcho() }), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <EchoProvider config={config} store={store}>
          {children}
        </EchoProvider>
      ),
    })
    const error = await result.current.router.chat.completions.create(chat).catch((e: unknown) => e)
    expect(isInsufficientFunds(error)).toBe(true)
    await waitFor(() => expect(result.current.echo.isInsufficientFunds).toBe(true))
    await vi.waitFor(() =>
      expect(document.querySelector('[data-echo-top-up-out-of-credits]')?.textContent).toBe(
        'You are out of credits. Add credits to keep going.',
      ),
    )
  })

  it('a balance refresh that finds credit again clears the out-of-credits mark', async () => {
    routerStub({ status: 402 })
    const { echo, wrapper } = await signedIn()
    const { result } = renderHook(() => ({ router: useEchoRouter(), echo: useEcho() }), { wrapper })
    await result.current.router.chat.completions.create(chat).catch(() => undefined)
    await waitFor(() => expect(result.current.echo.isInsufficientFunds).toBe(true))
    echo.set({ balance: 25 })
    await act(() => result.current.echo.refreshBalance())
    // RTK batches store notifications for RTK Query results, so the re-render may come a frame later.
    await waitFor(() => expect(result.current.echo.isInsufficientFunds).toBe(false))
    expect(result.current.echo.balance?.balance).toBe(25)
  })
})
