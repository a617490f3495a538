import { useEffect, useState, type FormEvent } from 'react'

import { useEchoRouter } from 'echo-rtk'

/** Text to speech: the router answers audio, played here. */
export function Speech() {
  const router = useEchoRouter()
  const [text, setText] = useState('Welcome back to Echo.')
  const [audioUrl, setAudioUrl] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => () => void (audioUrl !== null && URL.revokeObjectURL(audioUrl)), [audioUrl])

  async function speak(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setProblem(null)
    try {
      const audio = await router.audio.speech.create({ model: 'tts-1', input: text, voice: 'alloy' })
      setAudioUrl(URL.createObjectURL(audio))
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="speech">
      <h2 id="speech">Speech</h2>
      <form onSubmit={(event) => void speak(event)}>
        <label htmlFor="speech-text">Text</label>
        <input id="speech-text" value={text} onChange={(event) => setText(event.target.value)} />
        <button type="submit" disabled={busy}>
          Speak
        </button>
      </form>
      {audioUrl !== null && <audio controls src={audioUrl} aria-label="Speech" />}
      {problem !== null && <p role="alert">{problem}</p>}
    </section>
  )
}
