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

/** The budget: each flow runs at most this many files of src/. */
const FILES_PER_FLOW = 30
/**
 * Where a flow that misses the budget is held, as the size guard holds a missed bundle budget: at
 * the count the code has now, so that it grows no further unseen. Lower it as the code shrinks,
 * down to the budget.
 */
// The flows run one and two files more than the budget, for the server-held session: a model call's 401
// reads Echo's token answer with the code the app's server shares (api/tokenGrant.ts); a sign-in coming
// back runs the loader of its mode's session, from a chunk of its own so that a page ships its own mode's
// code only (auth/loadSession.ts), and what the store is told of a user before that chunk loads
// (auth/firstPaint.ts). The profile's read is shared with the server too (api/userInfo.ts, out of signIn.ts).
// Then two more each, as the import circles were broken into leaves: the credit arithmetic (store/money/credit.ts)
// and the moments' action creators apart from their player (store/dev/moments.ts). A count of files rewards
// inlining over locality; the files to read per question are to replace it. Then four more and three, as the
// money's watchers moved onto Redux Toolkit's listener middleware: the run they listen for (store/run.ts), the
// store's money (store/money/storeMoney.ts), why the balance is asked again and the checkout's return, each a leaf
// the watchers and the billed calls share (store/money/balanceAskedAgain.ts, store/money/checkoutReturn.ts).
const CEILING = { signInComingBack: FILES_PER_FLOW + 8, modelCallWith401: FILES_PER_FLOW + 6 }

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
  const missed = files.length > FILES_PER_FLOW ? ` (over the budget of ${FILES_PER_FLOW}: missed)` : ''
  console.log(`${flow}: ${files.length} files of src/${missed}\n${files.map((file) => `  ${file}`).join('\n')}`)
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
    expect(files.length).toBeLessThanOrEqual(CEILING.signInComingBack)
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
    expect(files).toContain('auth/refreshAttempt.ts')
    expect(files.length).toBeLessThanOrEqual(CEILING.modelCallWith401)
  })
})
