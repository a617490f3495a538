// useChat with the model running in the browser, through the user's session, on each AI SDK in
// use: 5 (Echo's templates pin it), 6 and 7. The transport is the one the README and the migration
// guide show, written against each major's own types; the model calls go to the dev server.
import { createOpenAI as createOpenAI5 } from '@ai-sdk/openai-v5'
import { createOpenAI as createOpenAI6 } from '@ai-sdk/openai-v6'
import { createOpenAI as createOpenAI7 } from '@ai-sdk/openai'
import { useChat as useChat5 } from '@ai-sdk/react-v5'
import { useChat as useChat6 } from '@ai-sdk/react-v6'
import { useChat as useChat7 } from '@ai-sdk/react'
import { act, render, screen, waitFor } from '@testing-library/react'
import * as ai7 from 'ai'
import * as ai5 from 'ai-v5'
import * as ai6 from 'ai-v6'
import { useMemo } from 'react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { EchoProvider, useEchoModelProvider, userMessageOf } from 'echo-rtk'

import type { RunningDevServer } from '../../dev-server/startDevServer.mjs'
import { setBalance } from '../dev-server/devServerClient'
import { DEV_SERVER_START_MS, startDevServerProcess } from '../support/devServerProcess'
import { devServerConfig, recordDevServer, storeDevServerSession } from '../support/devServerSession'

let dev: RunningDevServer
beforeAll(async () => {
  dev = await startDevServerProcess({ streamDelayMs: 5 })
}, DEV_SERVER_START_MS)
afterAll(async () => {
  await dev?.close()
})
beforeEach(async () => {
  recordDevServer()
  await setBalance(dev, 10, 1)
  await storeDevServerSession(dev)
})
afterEach(() => {
  window.localStorage.clear()
})

// What the user reads when an answer fails, as the README's recipe says it (the AI SDK's own
// default is "An error occurred." for every failure, a 402 included).
const saysWhy = userMessageOf

// The transport as documented, for each major with its own types (the cast is only for this
// repository's exactOptionalPropertyTypes: streamText takes an `abortSignal` that may be undefined).
function transport5(model: ai5.LanguageModel): ai5.ChatTransport<ai5.UIMessage> {
  return {
    // AI SDK 5's convertToModelMessages is synchronous; awaiting it lets one snippet serve 5, 6 and 7.
    sendMessages: async ({ messages, abortSignal }) =>
      ai5
        .streamText({
          model,
          // eslint-disable-next-line @typescript-eslint/await-thenable
          messages: await ai5.convertToModelMessages(messages),
          abortSignal: abortSignal as AbortSignal,
        })
        .toUIMessageStream({ onError: saysWhy }),
    reconnectToStream: () => Promise.resolve(null),
  }
}
function transport6(model: ai6.LanguageModel): ai6.ChatTransport<ai6.UIMessage> {
  return {
    sendMessages: async ({ messages, abortSignal }) =>
      ai6
        .streamText({
          model,
          messages: await ai6.convertToModelMessages(messages),
          abortSignal: abortSignal as AbortSignal,
        })
        .toUIMessageStream({ onError: saysWhy }),
    reconnectToStream: () => Promise.resolve(null),
  }
}
function transport7(model: ai7.LanguageModel): ai7.ChatTransport<ai7.UIMessage> {
  return {
    sendMessages: async ({ messages, abortSignal }) =>
      ai7
        .streamText({
          model,
          messages: await ai7.convertToModelMessages(messages),
          abortSignal: abortSignal as AbortSignal,
        })
        .toUIMessageStream({ onError: saysWhy }),
    reconnectToStream: () => Promise.resolve(null),
  }
}

interface ChatView {
  messages: { id: string; role: string; parts: { type: string; text?: string }[] }[]
  sendMessage: (message: { text: string }) => Promise<void>
  status: string
  error: Error | undefined
}

/** A chat page as an app writes it, for one AI SDK major. */
function ChatPage({ useChatOfThisMajor }: { useChatOfThisMajor: () => ChatView }) {
  const { messages, sendMessage, status, error } = useChatOfThisMajor()
  return (
    <>
      {error !== undefined && <p role="alert">{error.message}</p>}
      <ol aria-label="Conversation" aria-busy={status === 'submitted' || status === 'streaming'}>
        {messages.map((message) => (
          <li key={message.id} aria-label={message.role}>
            {message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => void sendMessage({ text: 'What are Echo credits?' })}>
        first
      </button>
      <button type="button" onClick={() => void sendMessage({ text: 'And how do I get more?' })}>
        second
      </button>
    </>
  )
}

const majors: [string, () => ChatView][] = [
  [
    'AI SDK 5',
    function useChatOn5() {
      const openai = useEchoModelProvider(createOpenAI5)
      const transport = useMemo(() => transport5(openai('gpt-5')), [openai])
      return useChat5({ transport })
    },
  ],
  [
    'AI SDK 6',
    function useChatOn6() {
      const openai = useEchoModelProvider(createOpenAI6)
      const transport = useMemo(() => transport6(openai('gpt-5')), [openai])
      return useChat6({ transport })
    },
  ],
  [
    'AI SDK 7',
    function useChatOn7() {
      const openai = useEchoModelProvider(createOpenAI7)
      const transport = useMemo(() => transport7(openai('gpt-5')), [openai])
      return useChat7({ transport })
    },
  ],
]

describe('useChat with the model in the browser, on every AI SDK in use', () => {
  it.each(majors)(
    '%s: two turns, each streamed from the router through the session, each answering its question',
    async (_major, useChatOfThisMajor) => {
      render(
        <EchoProvider config={devServerConfig(dev)}>
          <ChatPage useChatOfThisMajor={useChatOfThisMajor} />
        </EchoProvider>,
      )
      const conversation = await screen.findByRole('list', { name: 'Conversation' })
      for (const [turn, button, question] of [
        [0, 'first', 'What are Echo credits?'],
        [1, 'second', 'And how do I get more?'],
      ] as const) {
        act(() => screen.getByRole('button', { name: button }).click())
        await waitFor(
          () => expect(screen.getAllByRole('listitem', { name: 'assistant' })[turn]?.textContent).toContain(question),
          { timeout: 10_000 },
        )
        await waitFor(() => expect(conversation.getAttribute('aria-busy')).toBe('false'))
      }
      expect(screen.getAllByRole('listitem', { name: 'user' }).map((item) => item.textContent)).toEqual([
        'What are Echo credits?',
        'And how do I get more?',
      ])
    },
    30_000,
  )

  it.each(majors)(
    '%s: out of credits, the user reads why (the README shows onError), not "An error occurred."',
    async (_major, useChatOfThisMajor) => {
      await setBalance(dev, 0, 0)
      render(
        <EchoProvider config={devServerConfig(dev)}>
          <ChatPage useChatOfThisMajor={useChatOfThisMajor} />
        </EchoProvider>,
      )
      act(() => screen.getByRole('button', { name: 'first' }).click())
      expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe(
        'You are out of credits. Add credits to keep going.',
      )
    },
    30_000,
  )

  it.each(majors)(
    '%s: signed out, the user reads that they are signed out, and nothing is sent',
    async (_major, useChatOfThisMajor) => {
      window.localStorage.clear()
      const sent = recordDevServer()
      render(
        <EchoProvider config={devServerConfig(dev)}>
          <ChatPage useChatOfThisMajor={useChatOfThisMajor} />
        </EchoProvider>,
      )
      act(() => screen.getByRole('button', { name: 'first' }).click())
      expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe(
        'You are signed out. Sign in to keep going.',
      )
      expect(sent.filter((request) => request.url.endsWith('/chat/completions'))).toEqual([])
    },
    30_000,
  )
})
