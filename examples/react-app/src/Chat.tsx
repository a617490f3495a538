import { createOpenAI } from '@ai-sdk/openai'
import { useChat } from '@ai-sdk/react'
import { DirectChatTransport, ToolLoopAgent, type UIMessage } from 'ai'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'

import { EchoSignIn, EchoSpend, SignedOut, useEcho, useEchoModelProvider, userMessageOf } from 'echo-rtk'

/** The text of a message, from its parts. */
const textOf = (message: UIMessage) => message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')

/** What the chat asks to have back when a sign-in has to leave the page. */
const questionOf = (returnTo: unknown) =>
  typeof (returnTo as { question?: unknown } | null)?.question === 'string'
    ? (returnTo as { question: string }).question
    : null

/**
 * A conversation with `useChat` on the AI SDK's `DirectChatTransport`: the model runs in this
 * page (no server of the app's own), its calls go through the user's Echo session. Stop cancels
 * the request and its billing; Retry asks again. A 402 opens the account panel with its top-up
 * (`<EchoAccount>` does that by itself); here it only says why the answer stopped.
 *
 * Asked while signed out, the call opens Echo's sign-in in a window of its own (`signInOnDemand`)
 * and the answer follows. Where the browser blocks that window (an in-app browser), the chat's own
 * sign-in button leaves the page for Echo instead, carrying the question (`returnTo`), which comes
 * back in the box.
 */
export function Chat({ signInNavigate }: { signInNavigate?: (url: string) => void }) {
  const openai = useEchoModelProvider(createOpenAI)
  const { isInsufficientFunds, returnTo, error: sessionError } = useEcho()
  const transport = useMemo(
    () =>
      new DirectChatTransport({
        // The failure is shown below (and a 402 opens the account panel): nothing to log as well.
        // Chat Completions (`openai.chat`): the endpoint every model provider behind Echo's router serves.
        agent: new ToolLoopAgent({
          model: openai.chat('gpt-4o-mini'),
          instructions: 'You are a helpful assistant.',
          onError: () => undefined,
        }),
        onError: userMessageOf,
      }),
    [openai],
  )
  const { messages, sendMessage, status, stop, regenerate, error, clearError } = useChat({ transport })
  const [question, setQuestion] = useState('Tell me about Echo credits')
  const [lastAsked, setLastAsked] = useState('')
  // Back from a sign-in that left the page: the question asked before it is in the box again.
  const [restored, setRestored] = useState<unknown>(null)
  if (returnTo !== restored) {
    setRestored(returnTo)
    const back = questionOf(returnTo)
    if (back !== null) setQuestion(back)
  }
  const busy = status === 'submitted' || status === 'streaming'
  const conversation = useRef<HTMLOListElement>(null)

  // The newest words stay in view as the answer streams in.
  useEffect(() => {
    const list = conversation.current
    if (list !== null) list.scrollTop = list.scrollHeight
  }, [messages])

  function ask(event: FormEvent) {
    event.preventDefault()
    if (question.trim() === '') return
    setLastAsked(question)
    void sendMessage({ text: question })
    setQuestion('')
  }

  return (
    <section aria-labelledby="chat" className="chat">
      <h2 id="chat">Chat</h2>
      {/* Focusable, so a long conversation scrolls from the keyboard too. */}
      <ol ref={conversation} className="messages" aria-label="Conversation" aria-busy={busy} tabIndex={0}>
        {messages.map((message) => (
          <li
            key={message.id}
            className={`message ${message.role}`}
            aria-label={message.role === 'user' ? 'You' : 'Assistant'}
          >
            {textOf(message)}
          </li>
        ))}
        {messages.length === 0 && (
          <li className="message empty">Ask anything: each answer is paid from your Echo credits.</li>
        )}
      </ol>
      {/* What the last answer cost, and today's total in this app (signed in). */}
      <EchoSpend className="spend" last />
      {isInsufficientFunds ? (
        <p role="alert">Out of credits: add some to keep chatting.</p>
      ) : (
        // A sign-in that failed is said once, by the app's own error line.
        error !== undefined && error.message !== sessionError && <p role="alert">{error.message}</p>
      )}
      <form onSubmit={ask} className="ask">
        <label htmlFor="question">Question</label>
        <textarea
          id="question"
          rows={2}
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) ask(event)
          }}
        />
        <div className="actions">
          <button type="submit" disabled={busy || question.trim() === ''}>
            Ask
          </button>
          <button type="button" disabled={!busy} onClick={() => void stop()}>
            Stop
          </button>
          <button
            type="button"
            disabled={busy || messages.length === 0}
            onClick={() => (clearError(), void regenerate())}
          >
            Retry
          </button>
          <SignedOut>
            <EchoSignIn
              className="chat-sign-in"
              popup
              returnTo={{ question: question.trim() === '' ? lastAsked : question }}
              {...(signInNavigate === undefined ? {} : { navigate: signInNavigate })}
            >
              Sign in to ask
            </EchoSignIn>
          </SignedOut>
        </div>
      </form>
    </section>
  )
}
