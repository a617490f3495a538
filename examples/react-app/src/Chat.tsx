import { createOpenAI } from '@ai-sdk/openai'
import { useChat } from '@ai-sdk/react'
import { DirectChatTransport, ToolLoopAgent, type UIMessage } from 'ai'
import { useMemo, useState, type FormEvent } from 'react'

import { EchoTopUp, useEcho, useEchoModelProvider } from 'echo-rtk'

/** Checkout opens in a new tab, which closes itself once paid and tells this tab the new balance. */
const openCheckout = (url: string) => void window.open(url, '_blank')

/** The text of a message, from its parts. */
const textOf = (message: UIMessage) => message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')

/**
 * A conversation with `useChat` on the AI SDK's `DirectChatTransport`: the model runs in this
 * page (no server of the app's own), its calls go through the user's Echo session. Stop cancels
 * the request and its billing; Retry asks again; a 402 offers a top-up, which stays until credit
 * is back.
 */
export function Chat() {
  const openai = useEchoModelProvider(createOpenAI)
  const transport = useMemo(
    () => new DirectChatTransport({ agent: new ToolLoopAgent({ model: openai('gpt-4o-mini'), instructions: 'You are a helpful assistant.' }) }),
    [openai],
  )
  const { messages, sendMessage, status, stop, regenerate, error, clearError } = useChat({ transport })
  const { isInsufficientFunds } = useEcho()
  const [question, setQuestion] = useState('Tell me about Echo credits')
  const busy = status === 'submitted' || status === 'streaming'

  function ask(event: FormEvent) {
    event.preventDefault()
    if (question.trim() === '') return
    void sendMessage({ text: question })
    setQuestion('')
  }

  return (
    <section aria-labelledby="chat" className="chat">
      <h2 id="chat">Chat</h2>
      <ol className="messages" aria-label="Conversation" aria-busy={busy}>
        {messages.map((message) => (
          <li key={message.id} className={`message ${message.role}`} aria-label={message.role === 'user' ? 'You' : 'Assistant'}>
            {textOf(message)}
          </li>
        ))}
        {messages.length === 0 && <li className="message empty">Ask anything: each answer is paid from your Echo credits.</li>}
      </ol>
      {error !== undefined && !isInsufficientFunds && <p role="alert">{error.message}</p>}
      <EchoTopUp className="top-up" onlyWhenOutOfCredits navigate={openCheckout} />
      <form onSubmit={ask} className="ask">
        <label htmlFor="question">Question</label>
        <textarea id="question" rows={2} value={question} onChange={(event) => setQuestion(event.target.value)} />
        <div className="actions">
          <button type="submit" disabled={busy || question.trim() === ''}>
            Ask
          </button>
          <button type="button" disabled={!busy} onClick={() => void stop()}>
            Stop
          </button>
          <button type="button" disabled={busy || messages.length === 0} onClick={() => (clearError(), void regenerate())}>
            Retry
          </button>
        </div>
      </form>
    </section>
  )
}
