// The two flows of CONTRIBUTING.md ("How the code is laid out"), traced: which files of src/ run a
// function of their own while each flow runs, in jsdom against echo-rtk/testing's Echo (src/testing/
// is not counted). V8's precise coverage counts the calls of every function: the counts are reset
// just before the flow and read just after it. Evaluating a module does not count, and neither do
// the getters Vitest's module runner adds for each export (reading a constant is no call).
// The lists CONTRIBUTING.md gives are what this prints: npx vitest run test/flowTrace.test.tsx
import type { Profiler } from 'node:inspector'
import { Session } from 'node:inspector/promises'
import { join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

import { act, render, screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { useEffect, useState } from 'react'
import { describe, expect, it } from 'vitest'

import { EchoProvider, signIn, stopEchoSession, useEcho, useEchoFetch } from 'echo-rtk'
import type { FetchFunction } from 'echo-rtk/client'
import { echoEndpoints } from 'echo-rtk/testing'

import { CONFIG, echoStoresPerTest } from './support/echoStores'
import { server } from './support/server'
import { backFromEcho, ECHO, serveEcho } from './support/testEcho'

// No cap on the count: a count of files rewards inlining over locality. What a reader opens per question
// is test/filesPerQuestion.test.ts's; here each flow must run through the files that do its work.

const SRC = join(import.meta.dirname, '..', 'src', sep)

const { newStore, navigations, signInThroughEcho } = echoStoresPerTest()

/** The file under src/ that a script's URL names, or `null` (outside src/, or the testing entry's Echo). */
function sourceFile(url: string): string | null {
  if (!url.startsWith('file://')) return null
  const path = fileURLToPath(url.replace(/\?.*$/, ''))
  if (!path.startsWith(SRC)) return null
  const file = path.slice(SRC.length)
  return file === 'testing.ts' || file.startsWith('testing/') ? null : file
}

/**
 * Whether `fn` is a function of the file's own source: not the script itself, not the module
 * runner's wrapper around the module (`async (__vite_ssr_exports__, ...) => {...}`), and not one of
 * the getters it adds for each export (`() => { try { return name } catch {} }`).
 */
function isOwnFunction(fn: Profiler.FunctionCoverage, source: string): boolean {
  const { startOffset, endOffset } = fn.ranges[0]!
  if (startOffset === 0) return false
  const text = source.slice(startOffset, endOffset)
  if (text.startsWith('async (__vite_ssr_exports__')) return false
  return !/^\(\) => \{ try \{ return [\w$.]+ \} catch \{\} \}$/.test(text)
}

/** The files of src/ that ran a function of their own while `flow` ran, sorted. */
async function filesRunBy(flow: () => Promise<void>): Promise<string[]> {
  const session = new Session()
  session.connect()
  try {
    await session.post('Profiler.enable')
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
    // Taking the coverage resets the counts: what is counted next is the flow's alone.
    await session.post('Profiler.takePreciseCoverage')
    await flow()
    const { result } = await session.post('Profiler.takePreciseCoverage')
    await session.post('Debugger.enable')
    const files = new Set<string>()
    for (const script of result) {
      const file = sourceFile(script.url)
      const ran = script.functions.filter((fn) => fn.ranges[0]!.count > 0)
      if (file === null || ran.length === 0) continue
      const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: script.scriptId })
      if (ran.some((fn) => isOwnFunction(fn, scriptSource))) files.add(file)
    }
    return [...files].sort()
  } finally {
    await session.post('Profiler.stopPreciseCoverage').catch(() => undefined)
    session.disconnect()
  }
}

function report(flow: string, files: string[]): void {
  console.log(`${flow}: ${files.length} files of src/\n${files.map((file) => `  ${file}`).join('\n')}`)
}

/** The app of both flows: the signed-in user's name and credit, as `useEcho()` gives them. */
function Account() {
  const { user, balance, freeTierBalance } = useEcho()
  const free = freeTierBalance?.userSpendInfo.amountLeft
  return <p>{`${user?.name ?? 'nobody'}: ${balance?.balance ?? '-'} paid, ${free ?? '-'} free`}</p>
}

describe('the flows of CONTRIBUTING.md', () => {
  it('a sign-in coming back: from the page load to both balances shown', async () => {
    serveEcho({ freeTier: 0.25 })
    // Before the flow: the user left this page for Echo and consented; the address bar holds the code.
    const leaving = newStore()
    await leaving.dispatch(signIn())
    leaving.dispatch(stopEchoSession())
    await backFromEcho(navigations[0]!)

    const files = await filesRunBy(async () => {
      render(
        <EchoProvider config={CONFIG}>
          <Account />
        </EchoProvider>,
      )
      await screen.findByText('Ada Lovelace: 12.5 paid, 0.25 free', undefined, { timeout: 5_000 })
    })

    report('A sign-in coming back', files)
    for (const file of [
      'auth/pageReturn.ts',
      'auth/signIn.ts',
      'auth/EchoSession.ts',
      'store/authSlice.ts',
      'store/money/balanceFollower.ts',
      'api/query/echoApi.ts',
    ])
      expect(files).toContain(file)
  })

  it('a model call through useEchoFetch() that gets a 401: from the hook to the balance refetched', async () => {
    const echo = serveEcho({ freeTier: 0.25 })
    // Before the flow: signed in and the page loaded again (the user restored), the balance shown.
    const previousPage = await signInThroughEcho()
    previousPage.dispatch(stopEchoSession())
    window.history.replaceState(null, '', '/')
    const page: { showModelCall?: (on: boolean) => void; echoFetch?: FetchFunction } = {}
    function ModelCall() {
      const echoFetch = useEchoFetch()
      useEffect(() => void (page.echoFetch = echoFetch), [echoFetch])
      return null
    }
    function Page() {
      const [on, setOn] = useState(false)
      useEffect(() => void (page.showModelCall = setOn), [])
      return (
        <>
          <Account />
          {on && <ModelCall />}
        </>
      )
    }
    render(
      <EchoProvider config={CONFIG}>
        <Page />
      </EchoProvider>,
    )
    await screen.findByText('Ada Lovelace: 12.5 paid, 0.25 free')
    // The call spends, as the refetched balance shows; the router refuses the token once.
    echo.set({ balance: 12, freeTier: 0.2 })
    const chat = echoEndpoints({ apiUrl: ECHO }).chatCompletions
    server.use(http.post(chat, () => HttpResponse.json({ error: 'invalid_token' }, { status: 401 }), { once: true }))

    const files = await filesRunBy(async () => {
      act(() => page.showModelCall!(true))
      const response = await page.echoFetch!(chat, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
      })
      expect(response.status).toBe(200)
      await response.text()
      await screen.findByText('Ada Lovelace: 12 paid, 0.2 free', undefined, { timeout: 5_000 })
    })

    report('A model call through useEchoFetch() that gets a 401', files)
    for (const file of ['auth/refreshAttempt.ts', 'api/authorizedFetch.ts', 'store/money/billedCalls.ts'])
      expect(files).toContain(file)
  })
})
