// Coming from Echo's React SDK (docs/migrating-from-echo-react-sdk.md): a header with the balance,
// a top-up button and a chat, written against Echo's SDK's shapes, after only the changes the
// guide lists; and a user signed in by Echo's SDK still signed in after the switch.
import { createOpenAI } from '@ai-sdk/openai-v5'
import { useChat } from '@ai-sdk/react-v5'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { convertToModelMessages, streamText, type ChatTransport, type LanguageModel, type UIMessage } from 'ai-v5'
import { User } from 'oidc-client-ts'
import { useMemo, useState } from 'react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

import { EchoProvider, useEcho, useEchoModelProvider } from 'echo-rtk'

import type { RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { setBalance, signIn } from '../dev-server/devServerClient'
import { DEV_SERVER_START_MS, startDevServerProcess } from '../support/devServerProcess'
import { devServerConfig, recordDevServer, type SeenByDevServer } from '../support/devServerSession'

let dev: RunningDevServer
let seen: SeenByDevServer[]
beforeAll(async () => {
  dev = await startDevServerProcess({ streamDelayMs: 2 })
}, DEV_SERVER_START_MS)
afterAll(async () => {
  await dev?.close()
})
beforeEach(async () => {
  seen = recordDevServer()
  await setBalance(dev, 10, 1)
})
afterEach(() => {
  window.localStorage.clear()
})

/**
 * What Echo's React SDK keeps in localStorage after a sign-in: oidc-client-ts's UserManager, its
 * authority Echo's host, its profile read from userinfo (`loadUserInfo: true`).
 */
async function signedInByEchosSdk() {
  const tokens = await signIn(dev)
  const user = new User({
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    token_type: 'Bearer',
    scope: tokens.scope,
    profile: {
      sub: dev.testUser.id,
      email: dev.testUser.email,
      email_verified: true,
      name: dev.testUser.name,
      preferred_username: 'test',
    } as User['profile'],
    expires_at: Math.floor(Date.now() / 1000) + tokens.expires_in,
  })
  window.localStorage.setItem(`oidc.user:${dev.apiUrl}:${dev.appId}`, user.toStorageString())
}

// ---- The app, as the guide ports it (each change marked) ------------------------------------

/** Echo's SDK: `balance.balance + freeTierBalance.userSpendInfo.amountLeft`. echo-rtk: `credit`. */
function Header() {
  const { user, credit, isBalanceLoading } = useEcho()
  return (
    <header>
      <span>{user?.name}</span>
      <span aria-label="Credit">{isBalanceLoading || credit === null ? '' : `$${credit.toFixed(2)}`}</span>
    </header>
  )
}

/** Echo's SDK: `createPaymentLink(amount)`, then `window.location.href = url`. echo-rtk: `openCheckout(amount)`. */
function TopUpButton() {
  const { openCheckout } = useEcho()
  return (
    <button
      type="button"
      onClick={() =>
        void openCheckout(5, {
          checkoutIn: 'this-tab',
          navigate: (url) => window.dispatchEvent(new CustomEvent('checkout', { detail: url })),
        })
      }
    >
      Buy $5
    </button>
  )
}

/** Echo's SDK: `EchoChatProvider chatFn={doChat}` and its `useChat()`. echo-rtk: the AI SDK's `useChat` with the guide's transport. */
function browserChat(model: LanguageModel): ChatTransport<UIMessage> {
  return {
    sendMessages: async ({ messages, abortSignal }) =>
      // AI SDK 5's convertToModelMessages is synchronous; the guide awaits it so one snippet serves 5, 6 and 7.
      streamText({
        model,
        // eslint-disable-next-line @typescript-eslint/await-thenable
        messages: await convertToModelMessages(messages),
        abortSignal: abortSignal as AbortSignal,
      }).toUIMessageStream(),
    reconnectToStream: () => Promise.resolve(null),
  }
}

function Chat() {
  // Echo's SDK: `const { openai } = useEchoModelProviders()`.
  const openai = useEchoModelProvider(createOpenAI)
  const transport = useMemo(() => browserChat(openai('gpt-5')), [openai])
  const { messages, sendMessage } = useChat({ transport })
  const [input, setInput] = useState('Hello from the ported app')
  return (
    <section>
      {messages.map((message) => (
        <p key={message.id} data-role={message.role}>
          {message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}
        </p>
      ))}
      <input aria-label="Message" value={input} onChange={(event) => setInput(event.target.value)} />
      <button type="button" onClick={() => void sendMessage({ text: input })}>
        Send
      </button>
    </section>
  )
}

function PortedApp() {
  return (
    // Echo's SDK: `config={{ appId, baseEchoUrl, baseRouterUrl }}`. echo-rtk: `apiUrl` for `baseEchoUrl`.
    <EchoProvider config={devServerConfig(dev)}>
      <Header />
      <TopUpButton />
      <Chat />
    </EchoProvider>
  )
}

describe("an app written against Echo's React SDK, ported as the guide says", () => {
  it("a user Echo's SDK signed in is still signed in: shown at once, with no sign-in and no token request", async () => {
    await signedInByEchosSdk()
    seen.length = 0
    render(<PortedApp />)
    expect(await screen.findByText(dev.testUser.name)).toBeDefined()
    expect(seen.filter((request) => request.url.endsWith('/api/oauth/token'))).toEqual([])
  })

  it('the header shows one figure, once both the balance and the free tier are in: nothing, then $11.00', async () => {
    await signedInByEchosSdk()
    const shown: string[] = []
    render(<PortedApp />)
    const credit = await screen.findByLabelText('Credit')
    const observer = new MutationObserver(() => shown.push(credit.textContent ?? ''))
    observer.observe(credit, { subtree: true, childList: true, characterData: true })
    await waitFor(() => expect(credit.textContent).toBe('$11.00'))
    observer.disconnect()
    expect(shown.filter((text) => text !== '')).toEqual(['$11.00'])
  })

  it("the top-up button opens Echo's checkout for $5 in one click", async () => {
    await signedInByEchosSdk()
    const opened = vi.fn<(url: string) => void>()
    window.addEventListener('checkout', (event) => opened((event as CustomEvent<string>).detail))
    render(<PortedApp />)
    await userEvent.click(await screen.findByRole('button', { name: 'Buy $5' }))
    await waitFor(() => expect(opened).toHaveBeenCalledTimes(1))
    expect(opened.mock.calls[0]?.[0]).toMatch(new RegExp(`^${dev.apiUrl}/checkout/`))
  })

  it('the chat streams an answer from the router, billed to the user', async () => {
    await signedInByEchosSdk()
    render(<PortedApp />)
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }))
    await waitFor(
      () =>
        expect(document.querySelector('[data-role="assistant"]')?.textContent).toContain('Hello from the ported app'),
      { timeout: 10_000 },
    )
    expect(
      seen
        .filter((request) => request.url.startsWith(dev.routerUrl))
        .map((request) => request.authorization?.startsWith('Bearer ey')),
    ).toEqual([true])
  })
})
