import { useEchoRouter, userMessageOf } from 'echo-rtk'
import { useState } from 'react'

// A model call billed to the signed-in user: no API key, the user's token goes to Echo's router.
export function Ask() {
  const router = useEchoRouter()
  const [answer, setAnswer] = useState('')
  const ask = async () => {
    try {
      const reply = await router.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Write a haiku about credits' }],
      })
      setAnswer(reply.choices[0]?.message.content ?? '')
    } catch (error) {
      setAnswer(userMessageOf(error)) // a sentence for people: out of credits, offline, signed out…
    }
  }
  return (
    <>
      <button onClick={() => void ask()}>Ask</button>
      <output>{answer}</output>
    </>
  )
}
