'use client'

import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport, type UIMessage } from 'ai'
import { SignedIn, SignedOut, useEchoFetch } from 'echo-rtk'
import { useMemo, useState, type FormEvent } from 'react'

/** What a message says: its text, and what a tool answered on the server. */
function partsOf(message: UIMessage) {
  return message.parts.map((part, index) => {
    if (part.type === 'text') return <span key={index}>{part.text}</span>
    if (part.type === 'tool-lookUpOrder' && 'output' in part && part.output !== undefined) {
      const { orderId, status, carrier, arrives } = part.output as {
        orderId: string
        status: string
        carrier?: string
        arrives?: string
      }
      return (
        <span key={index} className="tool">
          Looked up order {orderId}: {status}
          {carrier && ` with ${carrier}`}
          {arrives && `, arrives ${arrives}`}
        </span>
      )
    }
    return null
  })
}

function SignedInChat() {
  // The session's fetch: each request to /api/chat goes with the session's cookie; a 402 opens the top-up.
  const fetch = useEchoFetch()
  const transport = useMemo(() => new DefaultChatTransport({ api: '/api/chat', fetch }), [fetch])
  const { messages, sendMessage, status, error } = useChat({ transport })
  const [question, setQuestion] = useState('Where is my order A1042?')
  const busy = status === 'submitted' || status === 'streaming'

  function ask(event: FormEvent) {
    event.preventDefault()
    if (question.trim() === '') return
    void sendMessage({ text: question })
    setQuestion('')
  }

  return (
    <section className="chat" aria-labelledby="chat">
      <h2 id="chat">Ask about an order</h2>
      <ol className="messages" aria-label="Conversation" aria-busy={busy}>
        {messages.map((message) => (
          <li
            key={message.id}
            className={`message ${message.role}`}
            aria-label={message.role === 'user' ? 'You' : 'Assistant'}
          >
            {partsOf(message)}
          </li>
        ))}
      </ol>
      {error && <p role="alert">{error.message}</p>}
      <form onSubmit={ask} className="ask">
        <label htmlFor="question">Question</label>
        <input id="question" value={question} onChange={(event) => setQuestion(event.target.value)} />
        <button type="submit" disabled={busy}>
          Ask
        </button>
      </form>
    </section>
  )
}

export function Chat() {
  return (
    <>
      <SignedIn>
        <SignedInChat />
      </SignedIn>
      <SignedOut>
        <p className="welcome">
          Sign in with Echo to ask about your orders. Each answer is paid from your Echo credits.
        </p>
      </SignedOut>
    </>
  )
}
