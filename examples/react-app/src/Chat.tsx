import { useRef, useState, type FormEvent } from 'react'

import { isAbortError, isInsufficientFunds, useEchoRouter } from 'echo-rtk'

/** A streaming chat: the answer grows token by token; Stop cancels the request (and the billing). */
export function Chat() {
  const router = useEchoRouter()
  const [question, setQuestion] = useState('Tell me about Echo credits')
  const [answer, setAnswer] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const running = useRef<AbortController | null>(null)
  const [busy, setBusy] = useState(false)

  async function ask(event: FormEvent) {
    event.preventDefault()
    const controller = new AbortController()
    running.current = controller
    setBusy(true)
    setAnswer('')
    setProblem(null)
    try {
      const stream = await router.chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }], stream: true },
        { signal: controller.signal },
      )
      for await (const chunk of stream) setAnswer((text) => text + (chunk.choices[0]?.delta.content ?? ''))
    } catch (error) {
      if (isInsufficientFunds(error)) setProblem('Out of credits: add some to keep chatting.')
      else if (!isAbortError(error)) setProblem(error instanceof Error ? error.message : String(error))
    } finally {
      running.current = null
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="chat">
      <h2 id="chat">Chat</h2>
      <form onSubmit={(event) => void ask(event)}>
        <label htmlFor="question">Question</label>
        <input id="question" value={question} onChange={(event) => setQuestion(event.target.value)} />
        <button type="submit" disabled={busy || question.trim() === ''}>
          Ask
        </button>
        <button type="button" disabled={!busy} onClick={() => running.current?.abort()}>
          Stop
        </button>
      </form>
      <output aria-label="Answer" aria-busy={busy} className="answer">
        {answer}
      </output>
      {problem !== null && <p role="alert">{problem}</p>}
    </section>
  )
}
