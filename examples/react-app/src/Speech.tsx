import { useEffect, useState, type FormEvent } from 'react'

import { useEchoRouter } from 'echo-rtk'

import { useModelCall } from './useModelCall'

/** Text to speech: the router answers audio, played here. */
export function Speech() {
  const router = useEchoRouter()
  const [text, setText] = useState('Welcome back to Echo.')
  const [audioUrl, setAudioUrl] = useState<string | null>(null)
  const { busy, problem, run } = useModelCall()

  useEffect(() => () => void (audioUrl !== null && URL.revokeObjectURL(audioUrl)), [audioUrl])

  function speak(event: FormEvent) {
    event.preventDefault()
    void run(async () => {
      const audio = await router.audio.speech.create({ model: 'tts-1', input: text, voice: 'alloy' })
      setAudioUrl(URL.createObjectURL(audio))
    })
  }

  return (
    <section aria-labelledby="speech">
      <h2 id="speech">Speech</h2>
      <form onSubmit={speak}>
        <label htmlFor="speech-text">Text</label>
        <input id="speech-text" value={text} onChange={(event) => setText(event.target.value)} />
        <button type="submit" disabled={busy}>
          Speak
        </button>
      </form>
      {audioUrl !== null && <audio className="player" controls src={audioUrl} aria-label="Speech" />}
      {problem !== null && <p role="alert">{problem}</p>}
    </section>
  )
}
